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
  /** Where the first visit's time goes (medians, ms from navigation start). */
  firstVisitMilestones: Record<string, Summary>;
  repeatVisitMilestones: Record<string, Summary>;
}

const customersPath = '/biz/customers';

/** Records, in the page, when the first customer row enters the DOM (ms since navigation start). */
async function installProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __benchFirstRow?: number };
    const found = () => document.querySelector('table a[href*="/biz/customers/edit/"]') !== null;
    const observer = new MutationObserver(() => {
      if (w.__benchFirstRow === undefined && found()) {
        w.__benchFirstRow = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

interface Visit {
  firstRow: number;
  milestones: Record<string, number>;
}

async function visit(page: Page, origin: string): Promise<Visit> {
  await page.goto(origin + customersPath);
  await page.waitForFunction(() => (window as unknown as { __benchFirstRow?: number }).__benchFirstRow !== undefined, undefined, {
    timeout: 60_000,
  });
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const lastEnd = (pattern: RegExp) => Math.max(0, ...resources.filter((r) => pattern.test(r.name)).map((r) => r.responseEnd));
    return {
      firstRow: (window as unknown as { __benchFirstRow: number }).__benchFirstRow,
      milestones: {
        'document received': nav?.responseEnd ?? 0,
        'DOMContentLoaded': nav?.domContentLoadedEventEnd ?? 0,
        'first contentful paint': paint?.startTime ?? 0,
        'first /api response': Math.min(...resources.filter((r) => r.name.includes('/api/')).map((r) => r.responseEnd), Number.POSITIVE_INFINITY),
        'last script loaded': lastEnd(/\.js($|\?)/),
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

function collect(visits: Visit[]): { firstRow: Summary; milestones: Record<string, Summary> } {
  const milestones: Record<string, Summary> = {};
  for (const key of Object.keys(visits[0]?.milestones ?? {})) {
    milestones[key] = summarize(visits.map((v) => v.milestones[key] ?? Number.NaN).filter(Number.isFinite));
  }
  return { firstRow: summarize(visits.map((v) => v.firstRow)), milestones };
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
    return {
      firstVisit: f.firstRow,
      repeatVisit: r.firstRow,
      repeatAfterRestart: collect(site.restart).firstRow,
      firstVisitMilestones: f.milestones,
      repeatVisitMilestones: r.milestones,
    };
  });
}
