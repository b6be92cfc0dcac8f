// The tab that owns the database crashes (its renderer, through the DevTools protocol's
// Page.crash) while three tabs write (issue 12, item 3): another tab takes over, every write that
// was acknowledged, from any tab, is in the database, and every request gets an answer.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch, launchBrowser, newContext, openPage, waitForBackend, type TrackedPage } from './harness';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Outcome {
  name: string;
  status?: number;
  body?: string;
  error?: string;
}

/** Starts a write loop in the tab: each acknowledged create is logged at once (`ack:<name>`), so it is known even if the tab dies. */
function startWriting(page: Page, label: string): Promise<void> {
  return page.evaluate((label) => {
    const state = { stop: false, inFlight: 0, acked: 0, failed: [] as { name: string; status?: number; body?: string; error?: string }[] };
    (window as unknown as { crashTest: typeof state }).crashTest = state;
    void (async () => {
      for (let i = 0; !state.stop; i++) {
        const name = `Crashtest ${label} ${i}`;
        state.inFlight++;
        try {
          const res = await fetch('/api/customers', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ full_name: name, email: `crash.${label}.${i}@example.com`, phone: '555 0100' }),
            // Far past the relay's own 8 s limit: reaching it means the request hung.
            signal: AbortSignal.timeout(30_000),
          });
          const body = await res.text();
          if (res.status === 200) {
            state.acked++;
            console.log(`ack:${name}`);
          } else {
            state.failed.push({ name, status: res.status, body });
          }
        } catch (error) {
          state.failed.push({ name, error: String(error) });
        } finally {
          state.inFlight--;
        }
      }
    })();
  }, label);
}

const acked = (page: Page) => page.evaluate(() => (window as unknown as { crashTest: { acked: number } }).crashTest.acked);

/** A writing tab's state for a failure message: its counts, its last failures and its backend role. */
const writerState = (page: Page) =>
  page.evaluate(() => {
    const state = (window as unknown as { crashTest: { acked: number; inFlight: number; failed: unknown[] } }).crashTest;
    return { acked: state.acked, inFlight: state.inFlight, failed: state.failed.length, lastFailed: state.failed.slice(-3), status: window.ottoBackendStatus?.() };
  });

describe('the owner tab crashes in the middle of writes', () => {
  it('another tab takes over, every acknowledged write is kept, and no request hangs', async () => {
    const ctx = await newContext(browser);
    const tabs: TrackedPage[] = [];
    for (let i = 0; i < 3; i++) {
      const tab = await openPage(ctx, '/biz/customers');
      await waitForBackend(tab.page);
      // A request the crash cut off is answered 503/504 in words, or fails as a network error when
      // the crash took the service worker along; the browser logs either. Nothing else is allowed.
      tab.allow(/^error: Failed to load resource: (the server responded with a status of 50[34] \([^)]*\)|net::ERR_FAILED)$/);
      tabs.push(tab);
    }
    const roles = await Promise.all(tabs.map((t) => t.page.evaluate(() => window.ottoBackendStatus?.().role)));
    const ownerIndex = roles.indexOf('leader');
    expect(ownerIndex).toBeGreaterThanOrEqual(0);
    const owner = tabs[ownerIndex] as TrackedPage;
    const followers = tabs.filter((t) => t !== owner);

    for (const [i, tab] of tabs.entries()) await startWriting(tab.page, `t${i}`);
    for (const tab of tabs) await expect.poll(() => acked(tab.page), { timeout: 20_000 }).toBeGreaterThanOrEqual(10);

    // A mark in the service worker's global scope: gone afterwards if the crash took the service
    // worker too (Chromium may run it in the owner tab's renderer process).
    const serviceWorker = ctx.serviceWorkers()[0];
    expect(serviceWorker).toBeDefined();
    await serviceWorker?.evaluate(() => ((self as unknown as { crashMark: number }).crashMark = 1));
    // Crash the owner's renderer in the middle of the writes.
    const crashed = new Promise<void>((resolve) => owner.page.once('crash', () => resolve()));
    const cdp = await ctx.newCDPSession(owner.page);
    void cdp.send('Page.crash').catch(() => undefined);
    await crashed;
    const before = await Promise.all(followers.map((t) => acked(t.page)));

    // Another tab owns the database now, and the writes go on from both.
    await expect
      .poll(async () => (await Promise.all(followers.map((t) => t.page.evaluate(() => window.ottoBackendStatus?.().role)))).includes('leader'), { timeout: 20_000 })
      .toBe(true);
    for (const [i, tab] of followers.entries()) {
      try {
        await expect.poll(() => acked(tab.page), { timeout: 20_000 }).toBeGreaterThanOrEqual((before[i] ?? 0) + 10);
      } catch (error) {
        // Seen rarely on a loaded machine: say where this tab's writes stand, so that a repeat names its cause.
        throw new Error(`follower ${i} after the crash: ${JSON.stringify(await writerState(tab.page))}; last lines: ${tab.logs.slice(-15).join(' | ')}`, {
          cause: error,
        });
      }
    }

    // Stop, and let every request still in flight get its answer.
    for (const tab of followers) await tab.page.evaluate(() => ((window as unknown as { crashTest: { stop: boolean } }).crashTest.stop = true));
    for (const tab of followers) {
      await expect.poll(() => tab.page.evaluate(() => (window as unknown as { crashTest: { inFlight: number } }).crashTest.inFlight), { timeout: 40_000 }).toBe(0);
    }

    // Every acknowledged write, from every tab (the crashed one's acknowledgements were logged as they came).
    const ackedNames = tabs.flatMap((t) => t.logs.filter((line) => line.startsWith('log: ack:')).map((line) => line.slice('log: ack:'.length)));
    const reader = followers[0] as TrackedPage;
    const stored = new Set<string>();
    for (let offset = 0; ; offset += 1000) {
      const page = await apiFetch(reader.page, `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: 'Crashtest', limit: 1000, offset }))}`);
      expect(page.status).toBe(200);
      const rows = page.json as { full_name: string }[];
      for (const row of rows) stored.add(row.full_name);
      if (rows.length < 1000) break;
    }
    const missing = ackedNames.filter((name) => !stored.has(name));
    expect(missing).toEqual([]);
    expect(ackedNames.filter((n) => n.startsWith(`Crashtest t${ownerIndex} `)).length).toBeGreaterThanOrEqual(10);

    // What failed failed in words (503/504 with the JSON error), never by hanging.
    const failed = (await Promise.all(followers.map((t) => t.page.evaluate(() => (window as unknown as { crashTest: { failed: Outcome[] } }).crashTest.failed)))).flat();
    const serviceWorkerRestarted = await Promise.all(
      ctx.serviceWorkers().map((w) => w.evaluate(() => (self as unknown as { crashMark?: number }).crashMark === undefined)),
    ).then((restarted) => restarted.some(Boolean));
    const networkErrors = failed.filter((outcome) => outcome.error !== undefined);
    for (const outcome of failed) {
      if (outcome.error !== undefined) {
        // The request a tab had in flight inside a service worker that died with the crash: the
        // browser fails it at once (the app says "Otto could not reach its database"). Never a hang:
        // the 30 s abort would read TimeoutError.
        expect(serviceWorkerRestarted, JSON.stringify(outcome)).toBe(true);
        expect(outcome.error).toBe('TypeError: Failed to fetch');
        continue;
      }
      expect([503, 504], JSON.stringify(outcome)).toContain(outcome.status);
      expect(JSON.parse(outcome.body ?? '{}')).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    // One request at a time per tab: at most the one each had in flight at the crash.
    expect(networkErrors.length).toBeLessThanOrEqual(followers.length);
    // A write that failed in words may have landed or not; one that was acknowledged always did.
    console.log(
      `owner crash: ${ackedNames.length} acknowledged writes, all kept; ${stored.size} stored; ${failed.length} failed (${networkErrors.length} network errors, service worker restarted: ${serviceWorkerRestarted})`,
    );
    for (const tab of followers) expect(tab.problems()).toEqual([]);
    await ctx.close();
  });
});
