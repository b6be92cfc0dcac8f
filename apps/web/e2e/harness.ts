// Helpers for the end-to-end tests: Debian's Chromium through playwright-core (never
// `playwright install`), pages that record console errors, API calls from inside a page.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshProfileDir, launchChromium, launchChromiumProfile, removeProfileDir } from '@otto/browser-testing';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { keptScreenCache, keptScreenKey } from '../src/backend/kept-screen-cache';

/** The `vite preview` server started by global-setup. */
export function baseUrl(): string {
  return inject('baseUrl');
}

/** A browser for tests that need no profile surviving a restart (the tests' Chromium: testChromiumPath). */
export function launchBrowser(): Promise<Browser> {
  return launchChromium({ test: true });
}

/** A fresh, empty profile directory; remove it with `removeUserDataDir`. */
export function freshUserDataDir(): string {
  return freshProfileDir('otto-e2e-profile-');
}

export function removeUserDataDir(dir: string): void {
  removeProfileDir(dir);
}

/** A browser whose profile (OPFS, service worker registration) lives in `userDataDir` and survives closing it. */
export function launchPersistent(userDataDir: string, baseURL = baseUrl()): Promise<BrowserContext> {
  return launchChromiumProfile(userDataDir, { baseURL, test: true });
}

/** A new isolated context (its own OPFS and service workers) on the shared browser. */
export function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseUrl() });
}

/** A test file's browser, and the tabs its tests open. */
export interface BrowserSession {
  /** The file's Chromium, launched before its first test. */
  readonly browser: Browser;
  /**
   * A tracked tab at `path`, once the backend answers unless `waitForBackend` is false: in a new
   * context of its own (its own OPFS and service worker) that is closed after the test, or, in a
   * warm session, in the file's context for these options with the data as it was at its start.
   */
  open(path: string, options?: BrowserContextOptions & { waitForBackend?: boolean; fresh?: boolean }): Promise<TrackedPage>;
  /** Another tracked tab at `path` in the same context as `tab` (same browser profile), once the backend answers. */
  openBeside(tab: TrackedPage, path: string): Promise<TrackedPage>;
  /** A new page of `context`, tracked as `open`'s are (its console problems asserted after the test). */
  newPage(context: BrowserContext): Promise<Page>;
  /**
   * Watches a context the test made itself: its service worker's console errors are asserted
   * after the test, as those of the session's own contexts are.
   */
  watch(context: BrowserContext): void;
}

/** What a warm session keeps between tests (see useBrowserSession's `warm`). */
const warmSnapshot = 'e2e-warm';
const defaultViewport = { width: 1280, height: 720 };

/**
 * Puts a warm context back as a test found it, from a page of it that the backend serves: the
 * data from the snapshot taken when the context was made, no scenario in force, nothing in local
 * storage and no kept first screen. Answers false when it could not (the context is then dropped).
 */
async function resetWarm(page: Page): Promise<boolean> {
  if (page.isClosed() || !new URL(page.url()).pathname.startsWith('/biz')) return false;
  return page
    .evaluate(async ({ name, kept }) => {
      if (!navigator.serviceWorker?.controller || typeof window.ottoBackendStatus !== 'function') return false;
      // A backend that does not answer in time is no base for the next test: the context is dropped.
      const post = (path: string, method: string, body?: unknown) =>
        fetch(path, {
          method,
          signal: AbortSignal.timeout(15_000),
          ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        });
      const restored = await post('/api/__otto/snapshot/restore', 'POST', { name });
      const cleared = await post('/api/__otto/scenario', 'DELETE');
      localStorage.clear();
      await (await caches.open(kept.cache)).delete(kept.key);
      return restored.status === 200 && cleared.status === 200;
    }, { name: warmSnapshot, kept: { cache: keptScreenCache, key: keptScreenKey } })
    .catch(() => false);
}

/**
 * The usual life of a browser test file: one Chromium for the file, a new context for every tab a
 * test opens, and after each test every tab's console problems asserted (none) and the contexts
 * closed. Call it at the top of the file.
 *
 * With `warm`, for the tests that are not about a first visit, ownership or offline: the contexts
 * (one per set of context options other than the viewport; a tab of another site, with its own
 * `baseURL`, gets a context of its own) live as long as the file, so a test's
 * tab finds the service worker installed and the database made; the data is put back after each
 * test from a snapshot taken when the context was made (POST /api/__otto/snapshot), with local
 * storage, scenarios and the kept first screen cleared. A context that could not be put back is
 * closed, and the next test gets a new one.
 * @example
 * const session = useBrowserSession({ warm: true });
 * it('lists customers', async () => {
 *   const { page } = await session.open('/biz/customers', { viewport: { width: 375, height: 740 } });
 * });
 */
export function useBrowserSession({ warm = false }: { warm?: boolean } = {}): BrowserSession {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const warmContexts = new Map<string, BrowserContext>();
  const tabs: TrackedPage[] = [];
  // Each context's service worker console errors (they belong to no page), read after each test.
  const workerErrors = new Map<BrowserContext, () => string[]>();
  const watch = (context: BrowserContext) => {
    if (!workerErrors.has(context)) workerErrors.set(context, trackServiceWorkerErrors(context));
  };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (context) => {
    const failed = context.task.result?.state === 'fail';
    if (failed) {
      // What the failing test left on screen, for a person to look at.
      const name = context.task.name.replace(/[^\w-]+/g, '-').slice(0, 60);
      for (const [i, tab] of tabs.entries()) {
        if (!tab.page.isClosed()) await screenshot(tab.page, `failed-${name}-${i + 1}`, { always: true }).catch(() => undefined);
      }
    }
    const used = tabs.splice(0);
    const problems = [...used.flatMap((tab) => tab.problems()), ...[...workerErrors.values()].flatMap((errors) => errors().splice(0))];
    for (const [key, warmContext] of warmContexts) {
      const pages = used.filter((tab) => tab.page.context() === warmContext).map((tab) => tab.page);
      if (pages.length === 0) continue;
      let reset = false;
      for (const page of pages) if (!reset) reset = await resetWarm(page);
      for (const page of pages) await page.close().catch(() => undefined);
      if (!reset || failed) {
        warmContexts.delete(key);
        await warmContext.close();
      }
    }
    for (const openContext of contexts.splice(0)) await openContext.close();
    // Only the warm contexts outlive the test: stop watching the rest.
    const kept = new Set(warmContexts.values());
    for (const watched of workerErrors.keys()) if (!kept.has(watched)) workerErrors.delete(watched);
    expect(problems).toEqual([]);
  });
  afterAll(async () => {
    for (const warmContext of warmContexts.values()) await warmContext.close().catch(() => undefined);
  });

  /** The file's warm context for these options, made (its backend started, the data kept) when new. */
  async function warmContext(options: BrowserContextOptions): Promise<BrowserContext> {
    const key = JSON.stringify(options);
    const kept = warmContexts.get(key);
    if (kept) return kept;
    const made = await browser!.newContext({ baseURL: baseUrl(), ...options });
    watch(made);
    const setup = await trackPage(await made.newPage());
    await setup.page.goto('/biz/customers');
    await waitForBackend(setup.page);
    const saved = await apiFetch(setup.page, '/api/__otto/snapshot', { method: 'POST', body: { name: warmSnapshot } });
    if (saved.status !== 200) throw new Error(`A warm context could not keep its data: ${saved.status} ${saved.text}`);
    await setup.page.close();
    expect(setup.problems()).toEqual([]);
    warmContexts.set(key, made);
    return made;
  }

  return {
    get browser() {
      if (!browser) throw new Error('The browser starts in beforeAll: use it inside a test.');
      return browser;
    },
    async open(path, { waitForBackend: wait = true, viewport, fresh = false, ...options } = {}) {
      let context: BrowserContext;
      // Another site (a remote-mode build) has no in-browser backend to keep warm, and a test that
      // asks for another browser profile (`fresh`) means one: each its own context.
      const useWarm = warm && !fresh && options.baseURL === undefined;
      if (useWarm) {
        context = await warmContext(options);
      } else {
        context = await this.browser.newContext({ baseURL: baseUrl(), ...(viewport !== undefined ? { viewport } : {}), ...options });
        contexts.push(context);
        watch(context);
      }
      const tab = await trackPage(await context.newPage());
      tabs.push(tab);
      if (useWarm) await tab.page.setViewportSize(viewport ?? defaultViewport);
      await tab.page.goto(path);
      if (wait) await waitForBackend(tab.page);
      return tab;
    },
    async openBeside(beside, path) {
      const tab = await openPage(beside.page.context(), path);
      tabs.push(tab);
      await waitForBackend(tab.page);
      return tab;
    },
    async newPage(context) {
      watch(context);
      const tab = await trackPage(await context.newPage());
      tabs.push(tab);
      return tab.page;
    },
    watch,
  };
}

/** A page that records what went wrong in it (console errors, uncaught errors) and what it logged. */
export interface TrackedPage {
  page: Page;
  /** Every console line, as `type: text` (web worker lines included). */
  readonly logs: string[];
  /** Console errors and uncaught errors not matched by `allow`. */
  problems(): string[];
  /** Console errors matching one of these are expected by the test. */
  allow(...patterns: RegExp[]): void;
}

export async function trackPage(page: Page): Promise<TrackedPage> {
  const logs: string[] = [];
  const errors: string[] = [];
  const allowed: RegExp[] = [];
  page.on('console', (message) => {
    const line = `${message.type()}: ${message.text()}`;
    logs.push(line);
    if (message.type() === 'error') errors.push(line);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.stack ?? error.message}`));
  page.on('crash', () => errors.push('the page crashed'));
  return {
    page,
    logs,
    problems: () => {
      // OTTO_E2E_SHOW_ALLOWED=1 prints what each allowed pattern let through: an allowed line must be
      // one the test understands, and this is how to see them.
      if (process.env.OTTO_E2E_SHOW_ALLOWED === '1') {
        for (const line of errors) {
          const by = allowed.find((pattern) => pattern.test(line));
          if (by) console.log(`allowed by ${String(by)}: ${line}`);
        }
      }
      return errors.filter((line) => !allowed.some((pattern) => pattern.test(line)));
    },
    allow: (...patterns) => allowed.push(...patterns),
  };
}

/** Console errors of the context's service worker (they belong to no page). */
export function trackServiceWorkerErrors(context: BrowserContext): () => string[] {
  const errors: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error' && !message.page()) errors.push(`${message.worker()?.url() ?? 'worker'}: ${message.text()}`);
  });
  return () => errors;
}

/** Opens `path` in a new tracked page of `context`. */
export async function openPage(context: BrowserContext, path: string): Promise<TrackedPage> {
  const tracked = await trackPage(await context.newPage());
  await tracked.page.goto(path);
  return tracked;
}

/**
 * Waits until the /biz area has started the backend (it installs window.ottoBackendStatus then;
 * window.ottoDeleteDatabase is there also when the database could not be opened) and the service
 * worker controls the page (a plain fetch('/api/…') from a test needs it).
 */
export async function waitForBackend(page: Page): Promise<void> {
  await page.waitForFunction(() => typeof window.ottoBackendStatus === 'function' && Boolean(navigator.serviceWorker?.controller), undefined, {
    timeout: 30_000,
  });
}

/** What a fetch made inside the page answered. */
export interface ApiCall {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
  /** How long the call took, in milliseconds: for logs only; bound a wait with `timeoutMs`, never assert on this. */
  ms: number;
}

/**
 * Calls the API with the page's own `fetch` (through the service worker, like the app does).
 * With `timeoutMs`, a call that has not answered by then fails the test in words ("does not hang").
 */
export async function apiFetch(
  page: Page,
  path: string,
  init: { method?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<ApiCall> {
  const call = await page.evaluate(
    async ({ path, method, body, timeoutMs }) => {
      const started = performance.now();
      const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
      try {
        const res = await fetch(path, {
          method: method ?? 'GET',
          ...(signal ? { signal } : {}),
          ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
        });
        const text = await res.text();
        return { status: res.status, headers: Object.fromEntries(res.headers), text, ms: performance.now() - started };
      } catch (error) {
        if (signal?.aborted) throw new Error(`${method ?? 'GET'} ${path} got no answer within ${timeoutMs} ms.`);
        throw error;
      }
    },
    { path, method: init.method, body: init.body, timeoutMs: init.timeoutMs },
  );
  let json: unknown;
  try {
    json = JSON.parse(call.text);
  } catch {
    json = undefined;
  }
  return { ...call, json };
}

/** `/api/customers` with a filterJson query. */
export function customersPath(filter?: { queryText?: string; limit?: number; offset?: number }): string {
  return filter ? `/api/customers?filterJson=${encodeURIComponent(JSON.stringify(filter))}` : '/api/customers';
}

const screenshotDir = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * Whether this run keeps the screenshots a person looks at (`OTTO_SCREENSHOTS=1`). A run that
 * does not ask takes none (they cost seconds each and nobody reads them on a passing run); a
 * failing test still saves one of every tab it had open (useBrowserSession).
 */
export const screenshotsWanted = process.env.OTTO_SCREENSHOTS === '1';

/** Saves a full-page screenshot to apps/web/e2e/screenshots/<name>.png when the run asks for them (or `always`). */
export async function screenshot(page: Page, name: string, { always = false } = {}): Promise<string> {
  const path = join(screenshotDir, `${name}.png`);
  if (!screenshotsWanted && !always) return path;
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Downloads a backup as a person does (Backup and export, Download a backup, Close).
 * @example
 * const { bytes, filename } = await downloadBackup(page); // filename: otto-backup-2026-11-23.sqlite3
 */
export async function downloadBackup(page: Page): Promise<{ bytes: Uint8Array; filename: string }> {
  await page.getByRole('button', { name: 'Backup and export' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download a backup' }).click()]);
  const bytes = new Uint8Array(readFileSync((await download.path())!));
  await page.getByRole('button', { name: 'Close' }).click();
  return { bytes, filename: download.suggestedFilename() };
}

/** The files of a folder at the root of OPFS, with their sizes (none when there is no such folder). */
export function opfsFolderFiles(page: Page, folder: string): Promise<{ name: string; size: number }[]> {
  return page.evaluate(async (folder) => {
    const root = await navigator.storage.getDirectory();
    let dir: FileSystemDirectoryHandle;
    try {
      dir = await root.getDirectoryHandle(folder);
    } catch {
      return [];
    }
    const files: { name: string; size: number }[] = [];
    for await (const handle of (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
      if (handle.kind === 'file') files.push({ name: handle.name, size: (await (handle as FileSystemFileHandle).getFile()).size });
    }
    return files;
  }, folder);
}
