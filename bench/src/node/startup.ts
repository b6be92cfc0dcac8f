import type { BrowserContext, Page } from 'playwright-core';
import { freshProfile, launchProfile, removeProfile } from './chromium';
import { summarize, type Summary } from './stats';

export interface StartupResult {
  /** Fresh profile: service worker install, SQLite load, migration, seeding 500 customers with jobs. */
  firstVisit: Summary;
  /** Same profile, a new tab after the previous one closed (browser still running). */
  repeatVisit: Summary;
  /** Same profile after the browser was restarted. */
  repeatAfterRestart: Summary;
  /**
   * The same visits to the first row the app itself rendered, from its own data: later than the
   * first row shown where Otto showed its kept first screen before (decision 0009), else the same.
   */
  live?: { firstVisit: Summary; repeatVisit: Summary; repeatAfterRestart: Summary };
  /** Where the first visit's time goes (medians, ms from navigation start). */
  firstVisitMilestones: Record<string, Summary>;
  repeatVisitMilestones: Record<string, Summary>;
}

const customersPath = '/biz/customers';

/**
 * Records, in the page, when the first customer row enters the DOM (ms since navigation start),
 * and when the first row the app itself rendered does: the same moment unless Otto showed its kept
 * first screen (`.otto-kept-screen`) while the app rendered beside it, hidden (decision 0009).
 */
async function installProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __benchFirstRow?: number; __benchLiveRow?: number };
    const rows = () => [...document.querySelectorAll('table a[href*="/biz/customers/edit/"]')];
    const observer = new MutationObserver(() => {
      const found = rows();
      if (w.__benchFirstRow === undefined && found.length > 0) w.__benchFirstRow = performance.now();
      if (w.__benchLiveRow === undefined && found.some((a) => !a.closest('.otto-kept-screen, [hidden]'))) {
        w.__benchLiveRow = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
  });
}

interface Visit {
  firstRow: number;
  liveRow: number;
  milestones: Record<string, number>;
}

async function visit(page: Page, origin: string): Promise<Visit> {
  await page.goto(origin + customersPath);
  await page.waitForFunction(() => (window as unknown as { __benchLiveRow?: number }).__benchLiveRow !== undefined, undefined, {
    timeout: 60_000,
  });
  // The app marks when its first screen's data came from its backend: after the live row when that
  // row was drawn from the kept answer.
  await page
    .waitForFunction(() => performance.getEntriesByName('otto:first-screen-answered').length > 0, undefined, { timeout: 10_000 })
    .catch(() => undefined);
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const lastEnd = (pattern: RegExp) => Math.max(0, ...resources.filter((r) => pattern.test(r.name)).map((r) => r.responseEnd));
    return {
      firstRow: (window as unknown as { __benchFirstRow: number }).__benchFirstRow,
      liveRow: (window as unknown as { __benchLiveRow: number }).__benchLiveRow,
      milestones: {
        'document received': nav?.responseEnd ?? 0,
        'DOMContentLoaded': nav?.domContentLoadedEventEnd ?? 0,
        'first contentful paint': paint?.startTime ?? 0,
        'first /api response': Math.min(...resources.filter((r) => r.name.includes('/api/')).map((r) => r.responseEnd), Number.POSITIVE_INFINITY),
        'last script loaded': lastEnd(/\.js($|\?)/),
        // Otto's app: its first screen's data has come from the database (after the kept answer, on a
        // visit that showed one) and two frames were drawn. MSW's page has no such mark.
        'first screen answered by the backend': performance.getEntriesByName('otto:first-screen-answered')[0]?.startTime ?? Number.POSITIVE_INFINITY,
      },
    };
  });
}

/** Waits (after the measurement) until a service worker is active for the page, 15 s at most. */
async function serviceWorkerActive(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([navigator.serviceWorker.ready.then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, 15_000))]),
  );
}

function collect(visits: Visit[]): { firstRow: Summary; liveRow: Summary; milestones: Record<string, Summary> } {
  const milestones: Record<string, Summary> = {};
  for (const key of Object.keys(visits[0]?.milestones ?? {})) {
    milestones[key] = summarize(visits.map((v) => v.milestones[key] ?? Number.NaN).filter(Number.isFinite));
  }
  return { firstRow: summarize(visits.map((v) => v.firstRow)), liveRow: summarize(visits.map((v) => v.liveRow)), milestones };
}

/**
 * Navigation to the first customer row of /biz/customers on production builds, one result per
 * origin (Otto's app, and the same app on MSW): first visits each in a fresh profile (a new
 * browser), taking the origins in turn so that whatever else the machine does weighs on each
 * alike; repeat visits (new tab) in the last of each origin's profiles right after its last first
 * visit; then visits after a browser restart, again in turn.
 */
export async function benchStartups(
  origins: readonly string[],
  runs: { first: number; repeat: number; restart: number },
  log: (line: string) => void,
): Promise<StartupResult[]> {
  const state = origins.map((origin) => ({ origin, first: [] as Visit[], repeat: [] as Visit[], restart: [] as Visit[], profile: undefined as string | undefined }));
  try {
    for (let i = 0; i < runs.first; i++) {
      for (const site of state) {
        if (site.profile) removeProfile(site.profile);
        site.profile = freshProfile();
        const context = await launchProfile(site.profile);
        await installProbe(context);
        try {
          const page = await context.newPage();
          site.first.push(await visit(page, site.origin));
          // As for a person who comes back later: the service worker has installed by then (Otto's
          // registers once the first screen has shown; closing at once could leave none).
          await serviceWorkerActive(page);
          await page.close();
          if (i === runs.first - 1) {
            for (let k = 0; k < runs.repeat; k++) {
              const again = await context.newPage();
              site.repeat.push(await visit(again, site.origin));
              await again.close();
            }
          }
        } finally {
          await context.close();
        }
      }
      if (i === runs.first - 1) log(`start-up: ${runs.first} first visits and ${runs.repeat} repeat visits per site done; ${runs.restart} visits after a browser restart…`);
    }
    for (let k = 0; k < runs.restart; k++) {
      for (const site of state) {
        if (!site.profile) continue;
        const context = await launchProfile(site.profile);
        await installProbe(context);
        try {
          const page = context.pages()[0] ?? (await context.newPage());
          site.restart.push(await visit(page, site.origin));
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    for (const site of state) if (site.profile) removeProfile(site.profile);
  }
  return state.map((site) => {
    const f = collect(site.first);
    const r = collect(site.repeat);
    const restart = collect(site.restart);
    return {
      firstVisit: f.firstRow,
      repeatVisit: r.firstRow,
      repeatAfterRestart: restart.firstRow,
      live: { firstVisit: f.liveRow, repeatVisit: r.liveRow, repeatAfterRestart: restart.liveRow },
      firstVisitMilestones: f.milestones,
      repeatVisitMilestones: r.milestones,
    };
  });
}
