// The in-browser backend in real Chromium: service worker relay, OPFS persistence, one database
// owner across tabs, recovery from a stopped service worker and a hard reload, memory fallback,
// and relay errors that answer instead of hanging.
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFetch,
  customersPath,
  freshUserDataDir,
  launchBrowser,
  launchPersistent,
  newContext,
  openPage,
  removeUserDataDir,
  screenshot,
  trackPage,
  trackServiceWorkerErrors,
  waitForBackend,
  type TrackedPage,
} from './harness';

interface Customer {
  id: string;
  full_name: string;
  email: string;
  phone: string;
}

let browser: Browser;
const contexts: BrowserContext[] = [];
const serviceWorkerErrors: (() => string[])[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  expect(serviceWorkerErrors.splice(0).flatMap((errors) => errors())).toEqual([]);
});

async function context(): Promise<BrowserContext> {
  const created = await newContext(browser);
  contexts.push(created);
  serviceWorkerErrors.push(trackServiceWorkerErrors(created));
  return created;
}

async function open(ctx: BrowserContext, path = '/biz/customers'): Promise<TrackedPage> {
  const tab = await openPage(ctx, path);
  if (path.startsWith('/biz')) await waitForBackend(tab.page);
  return tab;
}

function status(page: Page) {
  return page.evaluate(() => window.ottoBackendStatus?.());
}

async function createCustomer(page: Page, fullName: string): Promise<Customer> {
  const slug = fullName.toLowerCase().replace(/\W+/g, '.');
  const res = await apiFetch(page, '/api/customers', {
    method: 'POST',
    body: { full_name: fullName, email: `${slug}@example.com`, phone: '555-0100' },
  });
  expect(res.status).toBe(200);
  const customer = res.json as Customer;
  expect(customer.full_name).toBe(fullName);
  return customer;
}

/** Serves the DB worker script with `prefix` run before it (it is an ES module: imports still load first). */
async function injectIntoDbWorker(ctx: BrowserContext, prefix: string): Promise<void> {
  await ctx.route(/\/assets\/db\.worker-[^/]+\.js$/, async (route: Route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${prefix}\n${await response.text()}` });
  });
}

function expectNoProblems(...tabs: TrackedPage[]): void {
  for (const tab of tabs) expect(tab.problems()).toEqual([]);
}

describe('in-browser backend', () => {
  it('answers /api from a first visit to /biz/customers: 10 customers of 500, through the service worker', async () => {
    const tab = await open(await context());
    const { page } = tab;
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/otto-sw\.js$/);
    expect(await status(page)).toEqual({ role: 'leader', storage: 'opfs' });

    const res = await apiFetch(page, '/api/customers');
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('500');
    expect(res.json).toHaveLength(10);

    const search = await apiFetch(page, customersPath({ queryText: "O'Brien AND \"*", limit: 5 }));
    expect(search.status).toBe(200);
    expect(await apiFetch(page, '/api/nothing-here')).toMatchObject({ status: 404, text: 'Not found' });

    await expect.poll(() => page.getByRole('heading', { name: 'Customers' }).isVisible()).toBe(true);
    await screenshot(page, 'backend-first-visit');
    tab.allow(/status of 404/);
    expectNoProblems(tab);
  });

  it('loads no SQLite and registers no service worker on the landing page', async () => {
    const ctx = await context();
    const requested: string[] = [];
    ctx.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const tab = await open(ctx, '/');
    await tab.page.waitForLoadState('networkidle');
    expect(requested.filter((path) => /sqlite|db\.worker|otto-sw/.test(path))).toEqual([]);
    expect(await tab.page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0);
    expectNoProblems(tab);
  });

  it('fetches sqlite3.wasm and the first-start file once: the page fetches both and the DB worker uses them', async () => {
    const ctx = await context();
    const wasm: string[] = [];
    const seed: string[] = [];
    ctx.on('request', (request) => {
      // The service worker's precache fetches them too: that is not the page's start.
      if (request.serviceWorker()) return;
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('.wasm')) wasm.push(request.url());
      if (pathname === '/otto-seed.sqlite3.gz') seed.push(request.url());
    });
    const tab = await open(ctx, '/biz/customers');
    await tab.page.locator('a[href*="/biz/customers/edit/"]').first().waitFor();
    // The page's fetches, nothing from the worker (which would fetch a file itself if the page's
    // never came, or could not be used).
    expect(wasm).toHaveLength(1);
    expect(seed).toHaveLength(1);
    expect((await apiFetch(tab.page, '/api/customers')).headers['x-total-count']).toBe('500');
    // A later visit (the service worker controls the page, the database exists) fetches no seed.
    await tab.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await tab.page.reload();
    await tab.page.locator('a[href*="/biz/customers/edit/"]').first().waitFor();
    expect(seed).toHaveLength(1);
    expectNoProblems(tab);
  });

  it('registers the service worker on a first visit only once the first rows are on screen', async () => {
    const ctx = await context();
    // When the page asks to register, and when the first customer row appears.
    await ctx.addInitScript(() => {
      const marks = window as unknown as { rowAt?: number; registerAt?: number };
      const container = navigator.serviceWorker;
      const register = container.register.bind(container);
      container.register = (...args: Parameters<ServiceWorkerContainer['register']>) => {
        marks.registerAt ??= performance.now();
        return register(...args);
      };
      new MutationObserver((_, observer) => {
        if (!document.querySelector('a[href*="/biz/customers/edit/"]')) return;
        marks.rowAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const tab = await open(ctx, '/biz/customers');
    // It still installs and takes the page over: offline use depends on it.
    await tab.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    const { rowAt, registerAt } = await tab.page.evaluate(() => {
      const marks = window as unknown as { rowAt?: number; registerAt?: number };
      return { rowAt: marks.rowAt, registerAt: marks.registerAt };
    });
    expect(rowAt).toBeGreaterThan(0);
    expect(registerAt).toBeGreaterThan(rowAt as number);
    expectNoProblems(tab);
  });

  it('keeps a created customer after a reload and after the browser is closed and opened again (OPFS)', async () => {
    const dir = freshUserDataDir();
    try {
      let ctx = await launchPersistent(dir);
      serviceWorkerErrors.push(trackServiceWorkerErrors(ctx));
      let tab = await trackPage(ctx.pages()[0] ?? (await ctx.newPage()));
      await tab.page.goto('/biz/customers');
      await waitForBackend(tab.page);
      const created = await createCustomer(tab.page, 'Persistent Pat Quillfeather');

      await tab.page.reload();
      await waitForBackend(tab.page);
      expect((await apiFetch(tab.page, `/api/customers/${created.id}`)).json).toMatchObject(created);
      await expect.poll(() => tab.page.getByText('Persistent Pat Quillfeather').first().isVisible()).toBe(true);
      expectNoProblems(tab);
      await ctx.close();

      ctx = await launchPersistent(dir);
      serviceWorkerErrors.push(trackServiceWorkerErrors(ctx));
      try {
        tab = await trackPage(ctx.pages()[0] ?? (await ctx.newPage()));
        await tab.page.goto('/biz/customers');
        await waitForBackend(tab.page);
        expect(await status(tab.page)).toEqual({ role: 'leader', storage: 'opfs' });
        const again = await apiFetch(tab.page, `/api/customers/${created.id}`);
        expect(again.status).toBe(200);
        expect(again.json).toMatchObject(created);
        expect((await apiFetch(tab.page, '/api/customers')).headers['x-total-count']).toBe('501');
        await screenshot(tab.page, 'backend-after-restart');
        expectNoProblems(tab);
      } finally {
        await ctx.close();
      }
    } finally {
      removeUserDataDir(dir);
    }
  });

  it('shares one database between tabs, and the other tab takes over when the owner closes', async () => {
    const ctx = await context();
    const a = await open(ctx);
    const b = await open(ctx);
    expect(await status(a.page)).toEqual({ role: 'leader', storage: 'opfs' });
    expect(await status(b.page)).toEqual({ role: 'follower', storage: 'opfs' });

    const fromA = await createCustomer(a.page, 'Tabitha Twotabs');
    expect((await apiFetch(b.page, `/api/customers/${fromA.id}`)).json).toMatchObject(fromA);
    const fromB = await createCustomer(b.page, 'Bartholomew Follower');
    expect((await apiFetch(a.page, `/api/customers/${fromB.id}`)).json).toMatchObject(fromB);
    expectNoProblems(a);

    await a.page.close();
    // Asked at once, while B is still taking over: the request waits for the new owner.
    const during = await apiFetch(b.page, `/api/customers/${fromA.id}`);
    expect(during.status, JSON.stringify(during.json)).toBe(200);
    expect(during.json).toMatchObject(fromA);
    await expect.poll(() => status(b.page)).toEqual({ role: 'leader', storage: 'opfs' });
    const list = await apiFetch(b.page, customersPath({ limit: 2 }));
    expect(list.headers['x-total-count']).toBe('502');
    expect((list.json as Customer[]).map((c) => c.id)).toEqual([fromB.id, fromA.id]);

    // A tab opened now follows B.
    const c = await open(ctx);
    expect(await status(c.page)).toEqual({ role: 'follower', storage: 'opfs' });
    expect((await apiFetch(c.page, `/api/customers/${fromB.id}`)).status).toBe(200);
    expectNoProblems(b, c);
  });

  it('never falls back to memory because another worker holds the database: it waits for the files', async () => {
    const ctx = await context();
    const a = await open(ctx);
    const b = await open(ctx);
    const created = await createCustomer(a.page, 'Wanda Waitforit');
    const dbWorkerUrl = a.page.workers().find((w) => /db\.worker/.test(w.url()))?.url();
    expect(dbWorkerUrl).toBeDefined();

    // A second DB worker (in the follower tab) finds the database in use and waits for it quietly.
    await b.page.evaluate((url) => {
      const messages: { type: string; info?: { storage: string } }[] = [];
      const extra = new Worker(url, { type: 'module' });
      // The app's DB worker loads SQLite at once and opens the database only when told (waitForOpen).
      extra.postMessage({ type: 'open' });
      // It also waits up to 10 s for the page's compiled SQLite (the app posts it at once): none is
      // coming, so it loads its own. (Without this the extra worker held the files 10 s longer than
      // it needed, and the next owner's worker, waiting for them as long, sometimes gave up.)
      extra.postMessage({ type: 'sqlite-wasm' });
      extra.onmessage = (event: MessageEvent<{ type: string; info?: { storage: string } }>) => {
        messages.push(event.data);
        // Free the files at once for the tab that takes over.
        if (event.data.type === 'ready') extra.terminate();
      };
      (window as unknown as { extraDbWorker: typeof messages }).extraDbWorker = messages;
    }, dbWorkerUrl as string);
    // A 'problem' (the files still held after 10 s, on a busy machine) is the worker saying why it
    // waits longer, not an answer.
    const extraMessages = () =>
      b.page.evaluate(() =>
        (window as unknown as { extraDbWorker: { type: string; info?: { storage: string } }[] }).extraDbWorker.filter((m) => m.type !== 'problem'),
      );
    // Only once it is queued for the files (a pending Web Lock) does "no answer yet" mean it waits.
    const filesLockPending = () =>
      b.page.evaluate(async () => ((await navigator.locks.query()).pending ?? []).some((lock) => lock.name?.startsWith('otto-db-files:')));
    await expect.poll(filesLockPending, { timeout: 15_000 }).toBe(true);
    expect(await extraMessages()).toEqual([]);

    // The owner closes and its files are released: B takes over (after the extra worker, if that one got them first).
    await a.page.close();
    await expect.poll(() => status(b.page), { timeout: 15_000 }).toEqual({ role: 'leader', storage: 'opfs' });
    // It asked first, so it gets the files first: on OPFS, never in memory.
    await expect.poll(extraMessages, { timeout: 15_000 }).not.toEqual([]);
    expect(await extraMessages()).toEqual([expect.objectContaining({ type: 'ready', info: expect.objectContaining({ storage: 'opfs' }) })]);
    expect((await apiFetch(b.page, `/api/customers/${created.id}`)).json).toMatchObject(created);
    await b.page.evaluate(() => window.ottoDeleteDatabase?.());
    expectNoProblems(b);
  });

  it('still answers after the browser stops the service worker (it asks the tab for a new port)', async () => {
    const ctx = await context();
    await ctx.addInitScript(() => {
      const w = window as unknown as { ottoInitPorts: number };
      w.ottoInitPorts = 0;
      navigator.serviceWorker?.addEventListener('message', (event) => {
        if ((event.data as { type?: string } | null)?.type === 'INIT_PORT') w.ottoInitPorts++;
      });
    });
    const tab = await open(ctx);
    const { page } = tab;
    expect((await apiFetch(page, '/api/customers')).status).toBe(200);
    const initPorts = () => page.evaluate(() => (window as unknown as { ottoInitPorts: number }).ottoInitPorts);
    // The tab gave the worker a port itself: no INIT_PORT from the worker was needed so far.
    expect(await initPorts()).toBe(0);

    const cdp = await ctx.newCDPSession(page);
    const stopped = new Promise<void>((resolve) => {
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        if (versions.some((v) => v.runningStatus === 'stopped')) resolve();
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await stopped;

    const res = await apiFetch(page, customersPath({ limit: 3 }), { timeoutMs: 30_000 });
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(3);
    expect(await initPorts()).toBe(1);
    expectNoProblems(tab);
  });

  it('answers a page’s own /api call sent at the very start of a load or reload, online and offline (issue 33)', async () => {
    const ctx = await context();
    const tab = await open(ctx);
    // Sent before any of the page's scripts run, while its own backend has not even started: the
    // service worker waits for that backend. (It used to answer 503 "No open Otto tab" after 3 s.)
    await ctx.addInitScript(() => {
      if (!location.pathname.startsWith('/biz')) return;
      const started = performance.now();
      (window as unknown as { ottoEarly: Promise<unknown> }).ottoEarly = fetch('/api/customers').then(async (res) => ({
        status: res.status,
        ms: Math.round(performance.now() - started),
        body: (await res.text()).slice(0, 200),
      }));
    });
    const early = () => tab.page.evaluate(() => (window as unknown as { ottoEarly: Promise<{ status: number; ms: number; body: string }> }).ottoEarly);
    const timings: string[] = [];
    await tab.page.goto('/biz/jobs');
    for (const how of ['load', 'reload', 'reload', 'offline reload', 'offline reload']) {
      if (how === 'offline reload' && !timings.some((t) => t.startsWith('offline'))) {
        const cdp = await ctx.newCDPSession(tab.page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      }
      if (how !== 'load') await tab.page.reload();
      const answer = await early();
      expect(answer.status, `${how}: ${answer.body}`).toBe(200);
      timings.push(`${how} ${answer.ms} ms`);
    }
    console.log(`Chromium: /api/customers sent at document start answered after ${timings.join(', ')}`);
    expectNoProblems(tab);
  });

  it('takes control again after a hard reload (Shift+Reload leaves the page uncontrolled)', async () => {
    const ctx = await context();
    await ctx.addInitScript(() => {
      const w = window as unknown as { ottoControlledAtStart: boolean };
      w.ottoControlledAtStart = Boolean(navigator.serviceWorker?.controller);
    });
    const tab = await open(ctx);
    const { page } = tab;
    const created = await createCustomer(page, 'Harriet Hardreload');
    const controlledAtStart = () =>
      page.evaluate(() => (window as unknown as { ottoControlledAtStart: boolean }).ottoControlledAtStart);

    let loads = 0;
    page.on('load', () => loads++);
    const cdp = await ctx.newCDPSession(page);
    await Promise.all([page.waitForEvent('load'), cdp.send('Page.reload', { ignoreCache: true })]);
    // Without the claim, this page would stay uncontrolled and /api would reach the preview server.
    expect(await controlledAtStart()).toBe(false);
    await waitForBackend(page);
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    const res = await apiFetch(page, `/api/customers/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject(created);
    // Claimed without the last-resort reload.
    expect(loads).toBe(1);
    expectNoProblems(tab);
  });

  it('keeps the data as a snapshot in IndexedDB when OPFS is unavailable but IndexedDB is there (decision 0110)', async () => {
    const ctx = await context();
    await injectIntoDbWorker(ctx, 'delete FileSystemFileHandle.prototype.createSyncAccessHandle;');
    const tab = await open(ctx);
    const { page } = tab;
    expect(await status(page)).toMatchObject({ role: 'leader', storage: 'indexeddb', fallbackReason: expect.stringContaining('sync access') });
    await page.getByText('Your data is kept in this browser’s IndexedDB').waitFor();
    expect(await page.getByText('Changes will not be kept').count()).toBe(0);
    const created = await createCustomer(page, 'Ida Snapshot');
    // The owner reloads: its DB worker starts over from the snapshot, not from the first-start data.
    await page.reload();
    await waitForBackend(page);
    expect(await status(page)).toMatchObject({ role: 'leader', storage: 'indexeddb' });
    const res = await apiFetch(page, `/api/customers/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ full_name: 'Ida Snapshot' });
    expect((await apiFetch(page, '/api/customers')).headers['x-total-count']).toBe('501');
    await screenshot(page, 'backend-indexeddb-fallback');
    expectNoProblems(tab);
  });

  it('falls back to memory with the spec warning and a visible notice when neither OPFS nor IndexedDB is available', async () => {
    const ctx = await context();
    await injectIntoDbWorker(
      ctx,
      "delete FileSystemFileHandle.prototype.createSyncAccessHandle; Object.defineProperty(self, 'indexedDB', { value: undefined, configurable: true });",
    );
    const tab = await open(ctx);
    const { page } = tab;
    expect(await status(page)).toMatchObject({ role: 'leader', storage: 'memory', fallbackReason: expect.any(String) });
    expect(tab.logs.some((line) => /^warning: .*Persistence failed.*in-memory/i.test(line))).toBe(true);
    await expect.poll(() => page.getByText('Changes will not be kept').first().isVisible()).toBe(true);

    const res = await apiFetch(page, '/api/customers');
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('500');
    // A second tab follows the memory database instead of opening its own.
    const other = await open(ctx);
    expect(await status(other.page)).toMatchObject({ role: 'follower', storage: 'memory' });
    await screenshot(page, 'backend-memory-fallback');
    expectNoProblems(tab, other);
  });

  it('answers 504 TIMEOUT JSON instead of hanging when the database does not answer', async () => {
    const ctx = await context();
    await injectIntoDbWorker(
      ctx,
      // Requests reach the DB worker from its tab ('request') and straight from the service worker (a port's 'REQUEST').
      `self.addEventListener('message', (e) => { if (e.data?.type === 'request' && e.data.request.url.includes('otto-hang')) e.stopImmediatePropagation(); });
       const add = MessagePort.prototype.addEventListener;
       MessagePort.prototype.addEventListener = function (type, listener, ...rest) {
         const hanging = (e) => { if (e.data?.type === 'REQUEST' && e.data.request.url.includes('otto-hang')) return; listener.call(this, e); };
         return add.call(this, type, type === 'message' ? hanging : listener, ...rest);
       };`,
    );
    const tab = await open(ctx);
    tab.allow(/status of 504/);
    // The relay gives up after 8 s; the wait allows far more, so only a hang fails it.
    const res = await apiFetch(tab.page, '/api/customers?otto-hang=1', { timeoutMs: 30_000 });
    expect(res.status).toBe(504);
    expect(res.json).toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/did not answer/) });
    expect((await apiFetch(tab.page, '/api/customers')).status).toBe(200);
    expectNoProblems(tab);
  });

  it('relays a tab without the backend through another Otto tab, and answers 503 JSON when there is none', async () => {
    const ctx = await context();
    const biz = await open(ctx);
    const landing = await open(ctx, '/');
    expect(await landing.page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    const through = await apiFetch(landing.page, customersPath({ limit: 1 }));
    expect(through.status).toBe(200);

    // An address typed into the address bar has no tab yet: another tab answers it.
    const typed = await open(ctx, '/api/customers');
    expect(JSON.parse((await typed.page.textContent('body')) ?? '')).toHaveLength(10);

    await typed.page.close();
    await biz.page.close();
    landing.allow(/status of 503/);
    const none = await apiFetch(landing.page, '/api/customers', { timeoutMs: 30_000 });
    expect(none.status).toBe(503);
    expect(none.json).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/No open Otto tab/) });
    expectNoProblems(landing);
  });

  it('window.ottoDeleteDatabase() resets to a fresh seeded database, from any tab', async () => {
    const ctx = await context();
    const a = await open(ctx);
    const b = await open(ctx);
    const created = await createCustomer(a.page, 'Delia Deleteme');
    const find = (page: Page) => apiFetch(page, customersPath({ queryText: 'Deleteme' }));
    expect(await find(b.page)).toMatchObject({ status: 200, json: [created] });

    await b.page.evaluate(() => window.ottoDeleteDatabase?.());
    expect(await find(a.page)).toMatchObject({ status: 200, json: [] });
    const list = await apiFetch(b.page, '/api/customers');
    expect(list.headers['x-total-count']).toBe('500');
    expect(await status(a.page)).toEqual({ role: 'leader', storage: 'opfs' });
    expectNoProblems(a, b);
  });
});
