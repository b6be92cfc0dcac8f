// Otto with no network after one visit: the app shell comes from the service worker's precache,
// the data from OPFS. The web server is really stopped (and, in another test, hangs, or the
// browser is put offline through the DevTools protocol): deep links of every route open, a screen
// never opened before opens, customers and jobs are created and edited, and after a browser
// restart everything is still there. Also: Otto is installable (no installability errors).
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFetch,
  customersPath,
  freshUserDataDir,
  launchPersistent,
  removeUserDataDir,
  screenshot,
  trackPage,
  waitForBackend,
  type TrackedPage,
} from './harness';
import { startHangingServer, startStaticServer, type StaticServer } from './static-server';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

let server: StaticServer | undefined;
let profile: string;
let ctx: BrowserContext | undefined;
const tabs: TrackedPage[] = [];

beforeAll(() => {
  profile = freshUserDataDir();
});
afterEach(async () => {
  for (const tab of tabs.splice(0)) expect(tab.problems()).toEqual([]);
  await ctx?.close();
  ctx = undefined;
  await server?.close();
  server = undefined;
});
afterAll(() => removeUserDataDir(profile));

async function open(path: string): Promise<TrackedPage> {
  const tab = await trackPage(await ctx!.newPage());
  // Stopping the server makes Chromium log the failed loads of what the page asks the network for
  // (the service worker script's update check among them: its URL is not in the line's text).
  tab.allow(/^error: Failed to load resource: net::ERR_(CONNECTION_REFUSED|INTERNET_DISCONNECTED)$/);
  tabs.push(tab);
  await tab.page.goto(path);
  return tab;
}

/** First visit: the app loads, the service worker installs (precaching every file) and takes control. */
async function firstVisit(): Promise<TrackedPage> {
  const tab = await open('/biz/customers');
  await waitForBackend(tab.page);
  await tab.page.getByRole('table').waitFor();
  return tab;
}

async function expectEveryScreenOffline(page: Page, ids: { customer: string; job: string }): Promise<void> {
  // Each screen with what shows it has loaded, data included (an edit form is filled from the database).
  const screens: [string, (p: Page) => Promise<void>][] = [
    ['/', (p) => p.getByRole('heading', { name: 'back office', level: 1 }).waitFor()],
    ['/biz', (p) => p.getByRole('heading', { name: 'Customers', level: 1 }).waitFor()],
    [`/biz/customers/edit/${ids.customer}`, (p) => p.getByRole('button', { name: 'Save changes' }).waitFor()],
    ['/biz/customers/new', (p) => p.getByRole('heading', { name: 'New customer', level: 1 }).waitFor()],
    ['/biz/jobs', (p) => p.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor()],
    [`/biz/jobs/edit?id=${ids.job}`, (p) => p.getByRole('button', { name: 'Save changes' }).waitFor()],
    ['/biz/jobs/new', (p) => p.getByRole('heading', { name: 'New job', level: 1 }).waitFor()],
  ];
  for (const [path, loaded] of screens) {
    await page.goto(path);
    await loaded(page);
  }
  // Data, not only the shell: the list and the customer's form are filled from the database.
  await page.goto('/biz/customers');
  await expect.poll(() => page.getByRole('table').getByRole('row').count(), { timeout: 20_000 }).toBe(11);
}

async function createAndEditOffline(page: Page, name: string): Promise<string> {
  await page.goto('/biz/customers/new');
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email').fill('offline@example.com');
  await page.getByLabel('Phone').fill('+1 555 0100');
  await page.getByRole('button', { name: 'Create customer' }).click();
  await page.getByText(`${name} was added.`).waitFor();
  await page.waitForURL(/\/biz\/customers\/edit\/\d+$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByLabel('Phone').fill('+1 555 0199');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText(`Changes to ${name} were saved.`).waitFor();

  await page.getByRole('link', { name: `New job for ${name}` }).click();
  await page.getByLabel('Title').fill('Offline boiler check');
  await page.getByLabel('Price').fill('80.00');
  await page.getByRole('button', { name: 'Create job' }).click();
  await page.getByText(`Job “Offline boiler check” was created for ${name}.`).waitFor();
  await page.waitForURL(/\/biz\/jobs\/edit\?id=\d+$/);
  await page.getByLabel('Title').fill('Offline boiler service');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText(/Job “Offline boiler service” was saved/).waitFor();
  return id;
}

async function someIds(page: Page): Promise<{ customer: string; job: string }> {
  const [customer] = (await apiFetch(page, customersPath({ limit: 1 }))).json as { id: string }[];
  const [job] = (await apiFetch(page, '/api/jobs')).json as { id: string }[];
  return { customer: customer!.id, job: job!.id };
}

describe('offline, after one visit', () => {
  it('opens every route, creates and edits with the web server stopped, and after a browser restart', async () => {
    server = await startStaticServer(dist);
    const origin = server.url;
    ctx = await launchPersistent(profile, origin);
    const first = await firstVisit();
    const ids = await someIds(first.page);

    await server.close();
    server = undefined;
    const { page } = first;
    await page.reload();
    await page.getByRole('table').waitFor();
    await expectEveryScreenOffline(page, ids);
    const id = await createAndEditOffline(page, 'Nora Offline');
    await screenshot(page, 'offline-job-edit');

    // Restart the browser, still with no server.
    await ctx.close();
    ctx = await launchPersistent(profile, origin);
    const again = await open(`/biz/customers/edit/${id}`);
    await expect.poll(() => again.page.getByLabel('Phone').inputValue(), { timeout: 30_000 }).toBe('+1 555 0199');
    await again.page.goto('/biz/jobs?q=offline');
    await again.page.getByRole('link', { name: 'Offline boiler service' }).waitFor();
    await screenshot(again.page, 'offline-after-restart');
  });

  it('never waits for a network that hangs, and works under the DevTools offline emulation', async () => {
    const dir = freshUserDataDir();
    try {
      server = await startStaticServer(dist);
      const origin = server.url;
      ctx = await launchPersistent(dir, origin);
      const first = await firstVisit();
      const ids = await someIds(first.page);

      // The same port now accepts connections and never answers.
      await server.close();
      server = undefined;
      const hanging = await startHangingServer(Number(new URL(origin).port));
      try {
        await first.page.reload({ timeout: 10_000 });
        await expectEveryScreenOffline(first.page, ids);
      } finally {
        await hanging.close();
      }

      const cdp = await ctx.newCDPSession(first.page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await first.page.reload();
      await expectEveryScreenOffline(first.page, ids);
      await createAndEditOffline(first.page, 'Omar Emulated');
    } finally {
      await ctx?.close();
      ctx = undefined;
      removeUserDataDir(dir);
    }
  });

  it('is installable (manifest, icons, start URL in /biz, no installability errors) and says how safe the data is', async () => {
    server = await startStaticServer(dist);
    const dir = freshUserDataDir();
    try {
      ctx = await launchPersistent(dir, server.url);
      const tab = await firstVisit();
      const manifest = (await apiFetchText(tab.page, '/manifest.webmanifest')) as {
        start_url: string;
        display: string;
        icons: { sizes: string; purpose?: string }[];
      };
      expect(manifest).toMatchObject({ start_url: '/biz/customers', display: 'standalone' });
      expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
      expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
      const cdp = await ctx.newCDPSession(tab.page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
      expect(installabilityErrors).toEqual([]);

      // Backup and export says how safe the data is, and when the last backup was.
      const { page } = tab;
      await page.getByRole('button', { name: 'Backup and export' }).click();
      const storage = page.getByRole('definition');
      await expect.poll(() => storage.nth(0).textContent()).toMatch(/^(Yes|Not guaranteed)/);
      expect(await storage.nth(1).textContent()).toMatch(/^\d+(\.\d)? (KB|MB) of the/);
      expect(await storage.nth(2).textContent()).toBe('No backup downloaded in this browser yet.');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download a backup' }).click();
      await download;
      await expect.poll(() => storage.nth(2).textContent()).toMatch(/^today/);
      await screenshot(page, 'backup-storage-panel');
      await page.getByRole('button', { name: 'Close' }).click();

      // Changes and no backup for a week: one suggestion, which "Not now" puts away.
      await page.evaluate((weekAgo) => {
        localStorage.setItem('otto-last-backup-at', String(weekAgo - 1000));
        localStorage.setItem('otto-last-change-at', String(Date.now()));
      }, Date.now() - 7 * 86_400_000);
      await page.reload();
      await page.getByText('Time for a backup').waitFor();
      await screenshot(page, 'backup-nudge');
      await page.setViewportSize({ width: 375, height: 800 });
      await screenshot(page, 'backup-nudge-phone');
      // On a phone the navigation, Backup and export included, is behind the Menu button.
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('button', { name: 'Backup and export' }).click();
      await expect.poll(() => page.getByRole('definition').nth(2).textContent()).toMatch(/days ago/);
      await screenshot(page, 'backup-storage-panel-phone');
      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: 'Not now' }).click();
      await page.reload();
      await page.getByRole('table').waitFor();
      expect(await page.getByText('Time for a backup').count()).toBe(0);
    } finally {
      await ctx?.close();
      ctx = undefined;
      removeUserDataDir(dir);
    }
  });
  it('says in words when a screen’s code cannot be loaded (not kept, no network), and Reload brings it back', async () => {
    const own = freshUserDataDir();
    try {
      server = await startStaticServer(dist);
      const port = Number(new URL(server.url).port);
      ctx = await launchPersistent(own, server.url);
      const tab = await firstVisit();
      tab.allow(/^error: Failed to load resource: net::ERR_FAILED$/, /overview-screen/);
      const { page } = tab;
      // The Overview's code leaves the service worker's precache, and the network goes.
      const removed = await page.evaluate(async () => {
        let count = 0;
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) if (/overview-screen/.test(request.url)) count += Number(await cache.delete(request));
        }
        return count;
      });
      expect(removed).toBeGreaterThan(0);
      // Nor in the browser's HTTP cache (the precache's own download left it there).
      await (await ctx.newCDPSession(page)).send('Network.clearBrowserCache');
      await server.close();
      server = undefined;
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
      await page.getByRole('heading', { name: 'This screen could not be shown', level: 1 }).waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('Part of Otto could not be loaded (Otto may have been updated, or the network is gone).');
      await screenshot(page, 'route-error');
      await page.setViewportSize({ width: 375, height: 800 });
      await screenshot(page, 'route-error-phone');
      // The network back, Reload shows the screen.
      server = await startStaticServer(dist, port);
      await page.getByRole('button', { name: 'Reload' }).click();
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    } finally {
      await ctx?.close();
      ctx = undefined;
      removeUserDataDir(own);
    }
  });
});

async function apiFetchText(page: Page, path: string): Promise<unknown> {
  return page.evaluate(async (p) => (await fetch(p)).json(), path);
}
