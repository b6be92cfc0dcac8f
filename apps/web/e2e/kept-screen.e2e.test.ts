// The kept first screen (decision 0009): the customer list as Otto last drew it, shown at once on
// the next visit before the app's code has loaded, only while it is exactly what the database
// holds, and replaced by the live list once that has its data.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiFetch, baseUrl, screenshot, useBrowserSession, type TrackedPage } from './harness';

const session = useBrowserSession();

interface Probe {
  /** When the kept screen's first customer row appeared (ms from navigation), if it did. */
  keptAt?: number;
  /** The names on the kept screen, read when it appeared. */
  keptNames?: string[];
  /** Whether the kept screen could be clicked or typed into. */
  keptInert?: boolean;
  /** The kept screen's table as text (names, emails, phones, dates), read when it appeared. */
  keptText?: string;
  /** When the live list's first customer row appeared and could be seen. */
  liveAt?: number;
}

/** Records, in every new page of `context`, when the kept and the live customer rows appear. */
async function installProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const probe: Probe = {};
    (window as unknown as { __probe: Probe }).__probe = probe;
    const rowLink = 'table a[href*="/biz/customers/edit/"]';
    const look = () => {
      const kept = document.querySelector<HTMLElement>('.otto-kept-screen');
      if (probe.keptAt === undefined && kept?.querySelector(rowLink)) {
        probe.keptAt = performance.now();
        probe.keptNames = [...kept.querySelectorAll(rowLink)].map((a) => a.textContent ?? '');
        probe.keptInert = kept.inert;
        probe.keptText = kept.querySelector('table')?.textContent ?? '';
      }
      const live = [...document.querySelectorAll<HTMLElement>(rowLink)].find((a) => !a.closest('.otto-kept-screen') && a.offsetParent !== null);
      if (probe.liveAt === undefined && live) probe.liveAt = performance.now();
    };
    // After every change to the page, and every frame (layout decides what can be seen).
    new MutationObserver(look).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
    const everyFrame = () => {
      look();
      if (probe.liveAt === undefined) requestAnimationFrame(everyFrame);
    };
    requestAnimationFrame(everyFrame);
  });
}

/** What the probe saw, once it has seen the live list. */
async function probeOf(page: Page): Promise<Probe> {
  await page.waitForFunction(() => (window as unknown as { __probe: Probe }).__probe.liveAt !== undefined);
  return page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);
}

/** The data stamp and the kept screen's stamp and HTML, as the cache holds them now. */
function cacheOf(page: Page): Promise<{ stamp?: string; kept?: { stamp: string; html: string } }> {
  return page.evaluate(async () => {
    const cache = await caches.open('otto-first-screen');
    const stamp = await (await cache.match('/__otto/data-stamp'))?.text();
    const kept = (await (await cache.match('/__otto/first-screen'))?.json()) as { stamp: string; html: string } | undefined;
    return { ...(stamp ? { stamp } : {}), ...(kept ? { kept } : {}) };
  });
}

/** Waits until the screen kept in the cache is one the next visit would show. */
async function waitUntilKept(page: Page): Promise<{ stamp: string; html: string }> {
  await expect.poll(async () => {
    const { stamp, kept } = await cacheOf(page);
    return Boolean(stamp && kept?.stamp === stamp);
  }, { timeout: 15_000 }).toBe(true);
  const { kept } = await cacheOf(page);
  // No style attributes: the Content-Security-Policy would refuse them when it is shown.
  expect(kept!.html).not.toMatch(/\sstyle=/);
  return kept!;
}

/** The live list's customer names, once it is on screen and the kept screen is gone. */
async function liveNames(page: Page): Promise<string[]> {
  await page.locator('.otto-kept-screen').waitFor({ state: 'detached' });
  const links = page.getByRole('table').getByRole('link').filter({ has: page.locator('xpath=self::*[contains(@href, "/biz/customers/edit/")]') });
  await links.first().waitFor();
  return links.allTextContents();
}

/**
 * Holds the database files' lock from `page` (a page of the landing, which runs no app), so that a
 * tab opened meanwhile shows what it shows before the app while its DB worker waits: the test then
 * does not depend on which comes first on a busy machine. Resolves with the release.
 */
async function holdDatabase(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(
    () =>
      new Promise<void>((granted) => {
        void navigator.locks.request('otto-db-files:.otto', () => new Promise<void>((release) => ((window as unknown as { release: () => void }).release = release, granted())));
      }),
  );
  return () => page.evaluate(() => (window as unknown as { release: () => void }).release());
}

/**
 * Waits until the app's first screen has its data from the database (the app's mark), then checks
 * that the answer the app first drew from (the kept one) is exactly the database's answer now:
 * every customer, every date.
 */
async function expectKeptAnswerIsTheDatabases(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName('otto:first-screen-answered').length > 0);
  const kept = await page.evaluate(() => (window as unknown as { __ottoKeptAnswer?: { result: { data: unknown } } }).__ottoKeptAnswer);
  expect(kept, 'the app was handed the kept answer').toBeDefined();
  // On a first visit /api is answered once the service worker controls the page (a moment later).
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
  const answer = await apiFetch(page, '/api/customers');
  expect(kept!.result.data).toEqual(answer.json);
}

/**
 * Holds back the app's code (its start-app chunk) for the pages of `context` that fetch it
 * themselves (a first visit: no service worker controls the page yet). Returns the release.
 */
async function holdAppCode(context: BrowserContext): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route(/\/assets\/start-app-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function openWithProbe(beside: TrackedPage, path = '/biz/customers'): Promise<TrackedPage> {
  await installProbe(beside.page.context());
  return session.openBeside(beside, path);
}

describe('the kept first screen', () => {
  it('shows the list as last drawn before the app has loaded, exactly as the database answers, then the live list in its place', async () => {
    const first = await session.open('/biz/customers');
    const drawn = await liveNames(first.page);
    expect(drawn).toHaveLength(10);
    const kept = await waitUntilKept(first.page);
    expect(kept.html).toContain(drawn[0]);
    // A visit after the owning tab has closed (as a person coming back), and one beside it.
    const context = first.page.context();
    const holder = await session.newPage(context);
    await holder.goto('/');
    await first.page.close();
    const release = await holdDatabase(holder);
    await installProbe(context);
    const again = { page: await session.newPage(context) };
    await again.page.goto('/biz/customers');
    // The app draws the list from the kept answer while the database is still held, so the kept
    // screen may be gone already: the probe saw it.
    await again.page.waitForFunction(() => (window as unknown as { __probe: Probe }).__probe.liveAt !== undefined);
    await release();
    expect(await liveNames(again.page)).toEqual(drawn);
    await expectKeptAnswerIsTheDatabases(again.page);
    const probe = await probeOf(again.page);
    expect(probe.keptAt, 'the kept screen was shown').toBeDefined();
    expect(probe.keptNames).toEqual(drawn);
    expect(probe.keptInert).toBe(true);
    expect(probe.liveAt).toBeDefined();
    expect(probe.keptAt!).toBeLessThan(probe.liveAt!);
    expect(probe.keptText).toBe(await again.page.locator('table').first().textContent());
    // Exactly what the database answers now: the same ten, in the spec's order.
    const answer = await apiFetch(again.page, '/api/customers');
    expect((answer.json as { full_name: string }[]).map((c) => c.full_name)).toEqual(drawn);
    // The live app works: search answers.
    await again.page.getByRole('searchbox', { name: 'Search customers' }).fill(drawn[3]!);
    await expect.poll(() => again.page.getByRole('table').getByRole('link', { name: drawn[3] }).count()).toBeGreaterThan(0);
    await holder.close();
  });

  it('answers from the kept answer while the database is not open yet: a click opens the customer once it is', async () => {
    const first = await session.open('/biz/customers');
    const drawn = await liveNames(first.page);
    await waitUntilKept(first.page);
    const context = first.page.context();
    const holder = await session.newPage(context);
    await holder.goto('/');
    await first.page.close();
    const release = await holdDatabase(holder);
    const again = await session.newPage(context);
    await again.goto('/biz/customers');
    // The app itself shows the list, from the answer the kept screen was drawn from: the same rows,
    // not inert, while the database is still held by the other page.
    expect(await liveNames(again)).toEqual(drawn);
    // The hand-over is done while the database is still held: the page is no longer busy.
    expect(await again.locator('#root').getAttribute('aria-busy')).toBeNull();
    expect(await again.locator('#root [inert]').count()).toBe(0);
    await again.getByText('Otto is still starting').waitFor({ timeout: 10_000 });
    await screenshot(again, 'kept-answer-while-starting-desktop');
    await again.getByRole('table').getByRole('link', { name: drawn[2] }).click();
    expect(new URL(again.url()).pathname).toMatch(/^\/biz\/customers\/edit\/\d+$/);
    // The customer's screen waits for the database, and says so.
    await again.getByText('Loading customer…').waitFor();
    expect(await again.getByRole('heading', { level: 1, name: drawn[2] }).count()).toBe(0);
    await release();
    await again.getByRole('heading', { level: 1, name: drawn[2] }).waitFor();
    await expect.poll(() => again.getByText('Otto is still starting').count()).toBe(0);
    await holder.close();
  });

  it('opens a customer clicked on the kept screen before the app has loaded, and says so meanwhile', async () => {
    // A first visit: no service worker yet, so the page fetches the app's code itself and the test
    // can hold it back; the first-start list is shown meanwhile.
    const context = await session.browser.newContext({ baseURL: baseUrl() });
    session.watch(context);
    try {
      const releaseCode = await holdAppCode(context);
      const page = await session.newPage(context);
      await page.goto('/biz/customers');
      const link = page.locator('.otto-kept-screen table a[href*="/biz/customers/edit/"]').nth(2);
      await link.waitFor();
      const name = (await link.textContent())!.trim();
      const box = (await link.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.getByText(`Opening “${name}” as soon as Otto has started…`).waitFor();
      releaseCode();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/biz\/customers\/edit\/\d+$/);
      await expect(page.locator('.otto-kept-screen').count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  });

  it('shows the first-start list on a first visit, with its dates as the new database holds them', async () => {
    const context = await session.browser.newContext({ baseURL: baseUrl() });
    session.watch(context);
    try {
      await installProbe(context);
      const holder = await session.newPage(context);
      await holder.goto('/');
      const release = await holdDatabase(holder);
      const page = await session.newPage(context);
      await page.goto('/biz/customers');
      await page.waitForFunction(() => (window as unknown as { __probe: Probe }).__probe.liveAt !== undefined);
      await release();
      const names = await liveNames(page);
      // The answer the app drew from first, its dates moved by the page, is the new database's.
      await expectKeptAnswerIsTheDatabases(page);
      const probe = await probeOf(page);
      expect(probe.keptAt, 'the first-start list was shown').toBeDefined();
      expect(probe.keptNames).toEqual(names);
      expect(probe.keptAt!).toBeLessThan(probe.liveAt!);
      // Every cell, the dates included, now drawn from the database's answer: the database moved its
      // dates to the moment the page opened.
      expect(probe.keptText).toBe(await page.locator('table').first().textContent());
      // A database exists now: the next visit shows the list as kept, the same one.
      await waitUntilKept(page);
      const again = await session.newPage(context);
      await again.goto('/biz/customers');
      expect(await liveNames(again)).toEqual(names);
    } finally {
      await context.close();
    }
  });

  it('is not shown after a write until the list is drawn again; a tab showing the list keeps it again as it changes', async () => {
    const first = await session.open('/biz/customers');
    const drawn = await liveNames(first.page);
    await waitUntilKept(first.page);
    // This tab moves to the jobs (no customer list on screen), then writes: the stamp is gone by
    // the time the write is answered.
    await first.page.goto('/biz/jobs');
    await first.page.getByRole('table').first().waitFor();
    const newcomer = (name: string, email: string) =>
      apiFetch(first.page, '/api/customers', { method: 'POST', body: { full_name: name, email, phone: '555-0199' } });
    expect((await newcomer('Kept Screen Newcomer', 'kept.newcomer@example.com')).status).toBe(200);
    expect((await cacheOf(first.page)).stamp).toBeUndefined();
    // Another tab opens: no kept screen, and the list shows the new customer first.
    const second = await openWithProbe(first);
    const names = await liveNames(second.page);
    expect(names[0]).toBe('Kept Screen Newcomer');
    expect(names.slice(1)).toEqual(drawn.slice(0, 9));
    const probe = await probeOf(second.page);
    expect(probe.keptAt).toBeUndefined();
    expect(probe.liveAt).toBeDefined();
    expect((await waitUntilKept(second.page)).html).toContain('Kept Screen Newcomer');
    // While that tab shows the list, a write elsewhere: its list follows, and is kept as it is now.
    expect((await newcomer('Second Newcomer', 'second.newcomer@example.com')).status).toBe(200);
    await second.page.getByRole('link', { name: 'Second Newcomer' }).waitFor();
    await expect.poll(async () => (await cacheOf(second.page)).kept?.html.includes('Second Newcomer'), { timeout: 15_000 }).toBe(true);
    const third = await openWithProbe(second);
    expect(await liveNames(third.page)).toEqual(['Second Newcomer', 'Kept Screen Newcomer', ...drawn.slice(0, 8)]);
    expect((await probeOf(third.page)).keptNames).toEqual(['Second Newcomer', 'Kept Screen Newcomer', ...drawn.slice(0, 8)]);
  });

  it('is not shown on a search, another page or screen, nor after the database was deleted', async () => {
    const first = await session.open('/biz/customers');
    await liveNames(first.page);
    await waitUntilKept(first.page);
    for (const path of ['/biz/customers?q=a', '/biz/customers?page=2', '/biz/jobs']) {
      const other = await openWithProbe(first, path);
      await other.page.getByRole('table').first().waitFor();
      expect((await probeOf(other.page)).keptAt, path).toBeUndefined();
      await other.page.close();
    }
    // Deleted from a tab that shows no customer list (one that does keeps the new list at once).
    await first.page.goto('/biz/jobs');
    await first.page.getByRole('table').first().waitFor();
    const before = await cacheOf(first.page);
    await first.page.evaluate(() => window.ottoDeleteDatabase?.());
    // The delete took the data stamp away; a read of the fresh database may have set a new one
    // since (the jobs list refetches at once), never the stamp the kept screen was drawn under.
    const { stamp } = await cacheOf(first.page);
    expect(stamp === undefined || stamp !== before.kept?.stamp, `data stamp ${stamp}, kept under ${before.kept?.stamp}`).toBe(true);
    const after = await openWithProbe(first);
    await liveNames(after.page);
    expect((await probeOf(after.page)).keptAt).toBeUndefined();
  });

  it('looks like the live list while the app loads (screenshots at desktop and phone width)', async () => {
    for (const [name, viewport] of [
      ['kept-screen-desktop', { width: 1280, height: 800 }],
      ['kept-screen-phone', { width: 390, height: 844 }],
    ] as const) {
      // A first visit with the app's code held back: only the kept screen is there.
      const context = await session.browser.newContext({ baseURL: baseUrl(), viewport });
      try {
        const releaseCode = await holdAppCode(context);
        const page = await session.newPage(context);
        await page.goto('/biz/customers');
        await page.locator('.otto-kept-screen table').waitFor();
        await screenshot(page, name);
        // A picture of the app: not to be typed into, hidden from assistive technology.
        expect(await page.locator('.otto-kept-screen').evaluate((element) => (element as HTMLElement).inert && element.getAttribute('aria-hidden') === 'true')).toBe(true);
        // Still held after three seconds: a note says so.
        await expect.poll(() => page.getByRole('status').filter({ hasText: 'Otto is still starting' }).count(), { timeout: 10_000 }).toBe(1);
        await screenshot(page, `${name}-slow-start`);
        releaseCode();
        await liveNames(page);
      } finally {
        await context.close();
      }
    }
  });
});
