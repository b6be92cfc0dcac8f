import type { BrowserContext, Page } from 'playwright-core';
import type { BulkLoadTiming, DirectResult, DirectRun } from '../shared/messages';
import { benchOps, peerOps, type BenchOp, type JobContext, type LoopPlan, type Samples, type SearchTerms } from '../shared/ops';
import { iterationsFor } from './options';
import { serveStatic } from './static-server';
import { summarize, type Summary } from './stats';

export type OpSummaries = Partial<Record<BenchOp, Summary>>;

export interface SizeResult {
  n: number;
  iterations: { warmup: number; iterations: number; peer: number };
  terms: SearchTerms;
  matches: DirectResult['matches'];
  /** Jobs in the database, the job search word and how many jobs it matches. */
  jobs: { count: number; term: string; matches: number };
  storage: string;
  sqliteVersion: string;
  seeds: { runs: number; total: Summary; open: Summary; migrateAndSeed: Summary };
  /** n ready-made customers and their jobs loaded as seed data in one transaction (largest size only; one run). */
  bulkLoad?: BulkLoadTiming;
  /** page fetch → otto-sw.js → tab relay → DB worker → api.fetch */
  path: OpSummaries;
  /** api.fetch inside the DB worker */
  direct: OpSummaries;
  /** backend.fetch in the tab: tab → DB worker → tab, no service worker */
  tabToWorker: OpSummaries;
  /** page fetch → a service worker answering a constant response, timed right after the path */
  floor: OpSummaries;
  /** MSW + array: every operation, over arrays of the same customers and jobs */
  peer: OpSummaries;
  /** Why the MSW + array peer has no figures at this size (its page did not load), if it has none. */
  peerFailure?: string;
  plans: DirectResult['plans'];
}

export interface RequestPathResult {
  crossOriginIsolated: boolean;
  sizes: SizeResult[];
}

const fixedTerms = { common: 'gmail', prefix: 'mar' };

/** How long MSW's page may take to make its arrays and load (a million customers take minutes, if they fit). */
const peerLoadBudgetMs = 180_000;

/** Interleaved rounds of path, tab → worker and floor. */
const rounds = 4;

function merge(into: Samples, more: Samples): void {
  for (const op of benchOps) {
    const values = more[op];
    if (values) (into[op] ??= []).push(...values);
  }
}

function summaries(samples: Samples): OpSummaries {
  const out: OpSummaries = {};
  for (const op of benchOps) {
    const values = samples[op];
    if (values) out[op] = summarize(values);
  }
  return out;
}

/** Opens a bench page, reports its console errors, and waits for window.bench.ready. */
async function openBenchPage(context: BrowserContext, url: string, log: (line: string) => void, timeoutMs = 30_000): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') log(`  [${new URL(url).pathname}] ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => log(`  [${new URL(url).pathname}] uncaught: ${error.message}`));
  await page.goto(url, { timeout: timeoutMs });
  await page.waitForFunction(() => typeof window.bench === 'object', undefined, { timeout: timeoutMs });
  await page.evaluate(() => window.bench.ready);
  return page;
}

function fetchLoops(page: Page, plan: LoopPlan): Promise<Samples> {
  return page.evaluate((p) => {
    const run = window.bench.runFetchLoops;
    if (!run) throw new Error('This page has no fetch loops.');
    return run(p);
  }, plan);
}

/**
 * The request-path benchmark, in one browser profile: per size, a fresh origin where the direct
 * page seeds the OPFS database and times api.fetch inside its worker, then the path page serves the
 * same database through the real service worker and relay, in interleaved rounds with the floor
 * page (its own origin); then the MSW page serves the same customers from an array.
 */
export async function benchRequestPath(
  context: BrowserContext,
  distDir: string,
  sizes: readonly number[],
  quick: boolean,
  log: (line: string) => void,
  pragmas?: string,
): Promise<RequestPathResult> {
  const seedNow = Date.now();
  const fakerSeed = 42;
  const results: SizeResult[] = [];
  let isolated = true;

  const mswSite = await serveStatic(distDir);
  const floorSite = await serveStatic(distDir);
  try {
    for (const n of sizes) {
      const it = iterationsFor(n, quick);
      const site = await serveStatic(distDir);
      try {
        log(`request path, ${n} customers: seeding (${it.seedRuns}×) and timing api.fetch in the DB worker…`);
        const directPage = await openBenchPage(context, `${site.origin}/pages/direct.html`, log);
        const run: DirectRun = {
          n,
          fakerSeed,
          seedNow,
          seedRuns: it.seedRuns,
          plan: { ops: benchOps, warmup: it.warmup, iterations: it.iterations },
          terms: fixedTerms,
          bulkLoad: n === Math.max(...sizes),
          ...(pragmas ? { pragmas } : {}),
        };
        const direct = await directPage.evaluate((r) => {
          const runDirect = window.bench.runDirect;
          if (!runDirect) throw new Error('Not the direct page.');
          return runDirect(r);
        }, run);
        isolated &&= direct.crossOriginIsolated;
        await directPage.close();

        log(`request path, ${n} customers: timing the whole path, the tab → DB worker hop and the floor, in ${rounds} interleaved rounds…`);
        const pathPage = await openBenchPage(context, `${site.origin}/pages/otto.html?n=${n}`, log);
        const floorPage = await openBenchPage(context, `${floorSite.origin}/pages/floor.html`, log);
        isolated &&= await pathPage.evaluate(() => window.bench.crossOriginIsolated === true);
        // The three run in turns, a share of the iterations at a time, so that whatever else the
        // machine does in the meantime weighs on each of them alike.
        const path: Samples = {};
        const tabToWorker: Samples = {};
        const floor: Samples = {};
        const perRound = Math.ceil(it.iterations / rounds);
        for (let round = 0; round < rounds; round++) {
          const plan: LoopPlan = {
            ops: benchOps,
            warmup: Math.ceil(it.warmup / 2),
            iterations: perRound,
            ctx: { n, terms: direct.terms, jobs: direct.jobs },
            first: round * (perRound + it.warmup),
          };
          await pathPage.bringToFront();
          merge(path, await fetchLoops(pathPage, plan));
          merge(
            tabToWorker,
            await pathPage.evaluate((p) => {
              const run = window.bench.runBackendLoops;
              if (!run) throw new Error('Not the path page.');
              return run(p);
            }, plan),
          );
          await floorPage.bringToFront();
          merge(floor, await fetchLoops(floorPage, plan));
        }
        await pathPage.close();
        await floorPage.close();

        log(`request path, ${n} customers: timing the MSW + array peer…`);
        // MSW's page makes its arrays with faker before it loads: at a million customers that may
        // not end. Its failure is a figure of its own, and Otto's figures are kept.
        let peer: Samples = {};
        let peerFailure: string | undefined;
        const peerPage = `${mswSite.origin}/pages/msw.html?n=${n}&fakerSeed=${fakerSeed}&now=${seedNow}`;
        try {
          const mswPage = await openBenchPage(context, peerPage, log, peerLoadBudgetMs);
          const peerJobs: JobContext = {
            ...direct.jobs,
            moveIds: await mswPage.evaluate((k) => {
              const make = window.bench.makeMoveJobs;
              if (!make) throw new Error('Not the MSW page.');
              return make(k);
            }, direct.jobs.moveIds.length),
          };
          peer = await fetchLoops(mswPage, { ops: peerOps, warmup: Math.min(it.warmup, 5), iterations: it.peer, ctx: { n, terms: direct.terms, jobs: peerJobs } });
          await mswPage.close();
        } catch (error) {
          peerFailure = `MSW's page did not serve ${n.toLocaleString('en')} customers within ${peerLoadBudgetMs / 1000} s: ${(error as Error).message.split('\n')[0]}`;
          log(`  ${peerFailure}`);
          for (const page of context.pages()) if (page.url().startsWith(mswSite.origin)) await page.close().catch(() => undefined);
        }

        const seedSummary = (key: 'total' | 'open' | 'migrateAndSeed') => summarize(direct.seeds.map((s) => s[key]));
        results.push({
          n,
          iterations: { warmup: it.warmup, iterations: it.iterations, peer: it.peer },
          terms: direct.terms,
          matches: direct.matches,
          jobs: { count: direct.jobs.count, term: direct.jobs.term, matches: direct.jobMatches },
          storage: direct.storage,
          sqliteVersion: direct.sqliteVersion,
          ...(direct.bulkLoad ? { bulkLoad: direct.bulkLoad } : {}),
          seeds: { runs: direct.seeds.length, total: seedSummary('total'), open: seedSummary('open'), migrateAndSeed: seedSummary('migrateAndSeed') },
          path: summaries(path),
          direct: summaries(direct.samples),
          tabToWorker: summaries(tabToWorker),
          floor: summaries(floor),
          peer: summaries(peer),
          ...(peerFailure ? { peerFailure } : {}),
          plans: direct.plans,
        });
      } finally {
        await site.close();
      }
    }
  } finally {
    await mswSite.close();
    await floorSite.close();
  }
  return { crossOriginIsolated: isolated, sizes: results };
}
