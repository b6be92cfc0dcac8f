// Debian's Firefox ESR, stock, driven over WebDriver BiDi by puppeteer-core (`browser: 'firefox'`).
import puppeteer, { type Page } from 'puppeteer-core';
import { NotClickedError, wrapExpression, type BrowserSession, type Tab } from './driver';

/** `FIREFOX_PATH`, else Debian's firefox-esr. */
export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export async function launchFirefoxSession(origin: string): Promise<BrowserSession> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath,
    headless: true,
    defaultViewport: { width: 1280, height: 800 },
    // The machine reaches no other host: none of Firefox's own network traffic.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.safebrowsing.malware.enabled': false,
      'browser.safebrowsing.phishing.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
    },
  });
  const version = (await browser.version()).replace(/^firefox\//i, '');
  const resolve = (path: string) => new URL(path, origin).href;
  // Firefox throttles the timers of a tab in the background (a flow that clicked in the first of
  // two tabs took 28 s more): a tab is brought to the front before the flow acts in it, as a
  // person would. Reading a page (run) leaves it where it is, so a live update still has to reach
  // a tab in the background.
  let front: Page | undefined;
  const toFront = async (page: Page) => {
    if (front === page) return;
    await page.bringToFront();
    front = page;
  };
  const tabOf = (page: Page): Tab => {
    // WebDriver BiDi's log entries: console errors and uncaught errors (exceptions, unhandled rejections).
    const problems: string[] = [];
    // Reading an error's arguments takes a round trip: what is still being read is waited for.
    const reading: Promise<unknown>[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // An Error argument prints as "JSHandle@error": its message and stack say what it was.
      const read = Promise.all(
        message.args().map((arg) => arg.evaluate((v: unknown) => (v instanceof Error ? `${v.name}: ${v.message} ${v.stack ?? ''}` : String(v))).catch(() => '?')),
      ).then((args) => problems.push(`console.error: ${message.text()}${args.length > 0 ? ` [${args.join(' | ')}]` : ''}`));
      reading.push(read);
    });
    page.on('pageerror', (error) => problems.push(`uncaught: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
    return {
      goto: async (path) => {
        await toFront(page);
        await page.goto(resolve(path));
      },
      reload: async () => {
        await toFront(page);
        await page.reload();
      },
      url: async () => new URL(page.url()),
      run: <T>(expression: string) => page.evaluate(wrapExpression(expression)) as Promise<T>,
      // puppeteer finds the element, scrolls it into view and computes the point before it sends
      // the pointer input: these errors come from those steps, so the click did not happen.
      click: async (selector) => {
        await toFront(page);
        try {
          await page.click(selector);
        } catch (error) {
          if (/No element found|Node is detached|not clickable|not an Element|not attached/i.test(String(error))) throw new NotClickedError(String(error));
          throw error;
        }
      },
      type: async (selector, text) => {
        await toFront(page);
        await page.type(selector, text);
      },
      press: async (selector, key) => {
        await toFront(page);
        await page.focus(selector);
        await page.keyboard.press(key);
      },
      drag: async (from, to) => {
        await toFront(page);
        const box = async (selector: string) => {
          const found = await (await page.$(selector))?.boundingBox();
          if (!found) throw new NotClickedError(`${selector} is not shown.`);
          return { x: found.x + found.width / 2, y: found.y + found.height / 2 };
        };
        const [a, b] = [await box(from), await box(to)];
        await page.mouse.move(a.x, a.y);
        await page.mouse.down();
        await page.mouse.move(b.x, b.y, { steps: 10 });
        await page.mouse.up();
      },
      screenshot: async (path) => void (await page.screenshot({ path: path as `${string}.png` })),
      takeProblems: async () => {
        await Promise.all(reading.splice(0));
        return problems.splice(0);
      },
      close: () => page.close(),
    };
  };
  return {
    name: 'firefox',
    label: `Firefox ESR ${version}`,
    origin,
    newTab: async () => {
      const page = await browser.newPage();
      front = page;
      return tabOf(page);
    },
    close: () => browser.close(),
  };
}
