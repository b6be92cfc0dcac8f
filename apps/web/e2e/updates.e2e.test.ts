// A new build of Otto rolled out under open tabs: build A is served and open in two tabs; build B
// is deployed. Both tabs say a new version is ready and nothing reloads by itself (a half-typed
// form stays). The tab whose Reload is pressed runs B and takes the database over while the other
// tab keeps writing: every write A acknowledged is kept, and from the hand-over on A's writes are
// refused in words. Afterwards B opens with the server stopped, and A's files are gone from the cache.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch, customersPath, launchBrowser, screenshot, trackPage, waitForBackend, type TrackedPage } from './harness';
import { axeInEveryMode } from './axe';
import { startStaticServer, type StaticServer } from './static-server';

const appRoot = fileURLToPath(new URL('..', import.meta.url));
const distA = join(appRoot, 'dist');
const buildB = '99991231T000000Z';
let distB: string;
let browser: Browser;
let server: StaticServer | undefined;
let ctx: BrowserContext | undefined;

beforeAll(() => {
  // Build B: the same app built again, with a later build id.
  distB = mkdtempSync(join(tmpdir(), 'otto-build-b-'));
  execFileSync('pnpm', ['exec', 'vite', 'build', '--outDir', distB, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: appRoot,
    env: { ...process.env, OTTO_BUILD_ID: buildB },
    stdio: 'inherit',
  });
}, 180_000);
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
  await server?.close();
  rmSync(distB, { recursive: true, force: true });
});

async function open(path: string): Promise<TrackedPage> {
  const tab = await trackPage(await ctx!.newPage());
  // A save refused by the outdated tab's guard (409), and the loads that fail while the server is down.
  tab.allow(/^error: Failed to load resource: the server responded with a status of 409 \([^)]*\)$/, /^error: Failed to load resource: net::ERR_CONNECTION_REFUSED$/);
  await tab.page.goto(path);
  await waitForBackend(tab.page);
  return tab;
}

const version = (page: Page) => page.evaluate(() => window.ottoAppVersion);

/** Creates customers from `page` (as its build would: with its version) until one is refused or `ms` pass. */
function writeUntilRefused(page: Page, prefix: string, ms: number) {
  return page.evaluate(
    async ({ prefix, ms }) => {
      const results: { name: string; status: number; code?: string; message?: string }[] = [];
      const until = Date.now() + ms;
      for (let i = 0; Date.now() < until; i++) {
        const name = `${prefix} ${i}`;
        const res = await fetch('/api/customers', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-otto-app-version': window.ottoAppVersion ?? '' },
          body: JSON.stringify({ full_name: name, email: `w${i}@example.com`, phone: '+1 555 0100' }),
        });
        const body = (await res.json()) as { code?: string; message?: string } | null;
        results.push({ name, status: res.status, ...(res.ok ? {} : { code: body?.code, message: body?.message }) });
        if (res.status === 409) break;
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      return results;
    },
    { prefix, ms },
  );
}

describe('a new version rolled out under open tabs', () => {
  it('offers the update, hands the database to the newer tab without losing a write, and works offline after', { timeout: 180_000 }, async () => {
    server = await startStaticServer(distA);
    ctx = await browser.newContext({ baseURL: server.url });
    // Tab two opens first: it owns the database (and keeps build A); tab one moves to build B.
    const two = await open('/biz/customers/new');
    const one = await open('/biz/customers');
    expect(await two.page.evaluate(() => window.ottoBackendStatus?.().role)).toBe('leader');
    const versionA = await version(one.page);
    expect(await version(two.page)).toBe(versionA);
    await two.page.getByLabel('Full name').fill('Half-typed Hannah');
    await two.page.getByLabel('Email').fill('hannah@example.com');
    await two.page.getByLabel('Phone').fill('+1 555 0123');

    // Deploy B; the browser's update check (here asked for at once) installs it in the background.
    // Asked until it finds B: the check the browser makes by itself after a navigation may still be
    // running (it fetched build A), and an update asked for meanwhile joins that one.
    server.setRoot(distB);
    const found = await one.page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      for (let i = 0; i < 20 && registration; i++) {
        await registration.update();
        if (registration.installing || registration.waiting) return true;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return false;
    });
    expect(found, 'the update check found build B').toBe(true);
    for (const tab of [one, two]) await tab.page.getByText('A new version of Otto is ready').waitFor({ timeout: 30_000 });
    expect(await axeInEveryMode(two.page)).toEqual([]);
    await screenshot(two.page, 'update-ready');
    // Nothing reloaded by itself: the form still holds what was typed.
    expect(await two.page.getByLabel('Full name').inputValue()).toBe('Half-typed Hannah');
    expect(await version(two.page)).toBe(versionA);

    // Tab one moves to B; tab two (build A, the database's owner) writes all through the hand-over.
    // (The writes start once tab one reloads: Chromium activates a new worker only when the old one
    // has no request in flight, so writes already running hold the switch back (tried: the reload
    // then never came). The hand-over happens while tab one's B starts; on a quick one, tab two's
    // very first write may already meet the new owner and be refused.)
    const reloaded = one.page.waitForEvent('load', { timeout: 90_000 });
    await one.page.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    const writesA = writeUntilRefused(two.page, 'Written by A', 40_000);
    // Generous: the new worker activates once the old one has no request in flight (tab two keeps writing).
    await one.page.waitForFunction((b) => window.ottoAppVersion === b, buildB, { timeout: 90_000 }).catch((error: unknown) => {
      throw new Error(`Tab one did not come back on build B. Its console:\n${one.logs.join('\n')}`, { cause: error });
    });
    await waitForBackend(one.page);
    await expect.poll(() => one.page.evaluate(() => window.ottoBackendStatus?.().role), { timeout: 30_000 }).toBe('leader');
    const created = await apiFetch(one.page, '/api/customers', {
      method: 'POST',
      body: { full_name: 'Written by B', email: 'b@example.com', phone: '+1 555 0200' },
    });
    expect(created.status).toBe(200);

    const results = await writesA;
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toEqual([
      expect.objectContaining({ status: 409, code: 'APP_OUTDATED', message: 'Otto was updated in another tab. Reload to continue.' }),
    ]);
    // Every write before the refusal was acknowledged, and each of them is in the database once
    // (none when the hand-over came before tab two's first write).
    const acknowledged = results.filter((r) => r.status === 200).map((r) => r.name);
    expect(acknowledged).toHaveLength(results.length - 1);
    const stored = (await apiFetch(one.page, customersPath({ queryText: 'Written by A', limit: 100 }))).json as { full_name: string }[];
    expect(stored.map((c) => c.full_name).sort()).toEqual([...acknowledged].sort());

    // Tab two says so in words, and its form keeps what was typed when saving is refused.
    await two.page.getByText('Otto was updated in another tab', { exact: false }).first().waitFor();
    await two.page.getByRole('button', { name: 'Create customer' }).click();
    await two.page.getByText('Otto was updated in another tab. Reload to continue.').last().waitFor();
    expect(await two.page.getByLabel('Full name').inputValue()).toBe('Half-typed Hannah');
    await screenshot(two.page, 'update-outdated-tab');
    await two.page.setViewportSize({ width: 375, height: 800 });
    await screenshot(two.page, 'update-outdated-tab-phone');

    // B with no server: it opens from the cache, and A's files are gone from it.
    await server.close();
    server = undefined;
    await one.page.goto('/biz/customers');
    await one.page.getByRole('table').waitFor();
    expect(await version(one.page)).toBe(buildB);
    const cached = await one.page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      return urls;
    });
    const onlyInA = readdirSync(join(distA, 'assets')).filter((f) => !f.endsWith('.map') && !readdirSync(join(distB, 'assets')).includes(f));
    expect(onlyInA.length).toBeGreaterThan(0);
    expect(cached.filter((url) => onlyInA.some((file) => url.includes(file)))).toEqual([]);
    expect(one.problems()).toEqual([]);
    expect(two.problems()).toEqual([]);
  });
});
