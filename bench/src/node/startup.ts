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

function collect(visits: Visit[]): { firstRow: Summary; milestones: Record<string, Summary> } {
  const milestones: Record<string, Summary> = {};
  for (const key of Object.keys(visits[0]?.milestones ?? {})) {
    milestones[key] = summarize(visits.map((v) => v.milestones[key] ?? Number.NaN).filter(Number.isFinite));
  }
  return { firstRow: summarize(visits.map((v) => v.firstRow)), milestones };
}

/**
 * Navigation to the first customer row of /biz/customers on the production build: first visits
 * each in a fresh profile (a new browser), repeat visits in the last of those profiles.
 */
export async function benchStartup(
  origin: string,
  runs: { first: number; repeat: number; restart: number },
  log: (line: string) => void,
): Promise<StartupResult> {
  const first: Visit[] = [];
  const repeat: Visit[] = [];
  const restart: Visit[] = [];
  let profile: string | undefined;
  try {
    for (let i = 0; i < runs.first; i++) {
      if (profile) removeProfile(profile);
      profile = freshProfile();
      const context = await launchProfile(profile);
      await installProbe(context);
      try {
        const page = await context.newPage();
        first.push(await visit(page, origin));
        await page.close();
        if (i === runs.first - 1) {
          log(`start-up: ${runs.first} first visits done; ${runs.repeat} repeat visits (new tab)…`);
          for (let k = 0; k < runs.repeat; k++) {
            const again = await context.newPage();
            repeat.push(await visit(again, origin));
            await again.close();
          }
        }
      } finally {
        await context.close();
      }
    }
    log(`start-up: ${runs.restart} repeat visits after a browser restart…`);
    for (let k = 0; k < runs.restart && profile; k++) {
      const context = await launchProfile(profile);
      await installProbe(context);
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        restart.push(await visit(page, origin));
      } finally {
        await context.close();
      }
    }
  } finally {
    if (profile) removeProfile(profile);
  }
  const f = collect(first);
  const r = collect(repeat);
  return {
    firstVisit: f.firstRow,
    repeatVisit: r.firstRow,
    repeatAfterRestart: collect(restart).firstRow,
    firstVisitMilestones: f.milestones,
    repeatVisitMilestones: r.milestones,
  };
}
