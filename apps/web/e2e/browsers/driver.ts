// The small, browser-neutral surface the shared flows (shared-flows.ts) are written against, so
// that one flow runs unchanged in Chromium (playwright-core, DevTools protocol), Firefox
// (puppeteer-core, WebDriver BiDi) and WebKit (webdriver, classic W3C WebDriver to WebKitWebDriver).
// Each browser implements only what its client does natively: navigation, running a script in the
// page, a real click and real typing on a CSS selector, tabs, screenshots. Finding elements by role,
// label and text happens in the page (screen.ts), the same for every browser.

export type BrowserName = 'chromium' | 'firefox' | 'webkit';

/** One tab (page, top-level browsing context) of a browser session. */
export interface Tab {
  /** Opens a path of the origin under test (or a full URL) and waits for the page's load. */
  goto(path: string): Promise<void>;
  /** Reloads the page and waits for its load. */
  reload(): Promise<void>;
  /** The page's current URL. */
  url(): Promise<URL>;
  /**
   * Runs a JavaScript expression in the page (a promise is awaited) and answers its value as JSON
   * (undefined becomes null). A script that throws rejects with its message.
   */
  run<T>(expression: string): Promise<T>;
  /**
   * Clicks the element the selector matches, with the browser's own pointer input. Rejects with
   * `NotClickedError` only when the click certainly did not happen (the element is not in the page,
   * or something else would have taken the click); any other rejection may come after the click took
   * effect, so the caller must not click again.
   */
  click(selector: string): Promise<void>;
  /** Types `text` into the (focused-by-the-client) element the selector matches, key by key. */
  type(selector: string, text: string): Promise<void>;
  /** Focuses the element the selector matches and presses one key there (`ArrowRight`, `Enter`). */
  press(selector: string, key: 'ArrowRight' | 'ArrowLeft' | 'ArrowUp' | 'ArrowDown' | 'Enter'): Promise<void>;
  /**
   * Drags with the browser's own pointer input: pressed at the centre of the element `from`
   * matches, moved in steps to the centre of `to`'s, released there.
   */
  drag(from: string, to: string): Promise<void>;
  /** Saves a screenshot of the viewport as PNG. */
  screenshot(path: string): Promise<void>;
  /**
   * The console errors, uncaught exceptions and unhandled rejections of this tab since the last
   * call (as `console.error: …`, `uncaught: …` lines), then forgets them. Chromium and Firefox
   * report them through their clients' events; WebKit through a script in the page
   * (console-watch.ts). The shared flows fail on any of them, like `trackPage` in harness.ts.
   */
  takeProblems(): Promise<string[]>;
  close(): Promise<void>;
}

/** One running browser with its own fresh profile: its tabs share OPFS, IndexedDB and service workers. */
export interface BrowserSession {
  readonly name: BrowserName;
  /** For reports: "Firefox ESR 153.7.0", "WebKitGTK 2.50.6 (MiniBrowser)", "Chromium 14x". */
  readonly label: string;
  /** The origin every relative path of `Tab.goto` is resolved against. */
  readonly origin: string;
  newTab(): Promise<Tab>;
  close(): Promise<void>;
}

/** Starts a browser of one kind on a fresh profile, for pages of `origin`. */
export type LaunchBrowser = (origin: string) => Promise<BrowserSession>;

/**
 * A click that did not happen: the element is gone (React replaced it) or another element covers it.
 * Clicking again is safe. A click is not idempotent (a second "Save", a second "New customer"), so
 * `Screen` tries again only on this error.
 */
export class NotClickedError extends Error {
  override name = 'NotClickedError';
}

/** The JSON-able value of `expression` run as an async function body's return value. */
export function wrapExpression(expression: string): string {
  return `(async () => { const value = await (${expression}); return value === undefined ? null : value; })()`;
}
