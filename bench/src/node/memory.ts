// The memory bench: Otto's page, DB worker and service worker, and MSW's page and service worker,
// once the customer list's first row is shown, on a first and a repeat visit, at each size. The
// figures, their parts and the report's table: memory-figures.ts; CDP to workers: memory-cdp.ts.
import type { BrowserContext, Page } from 'playwright-core';
import { freshProfile, launchProfile, removeProfile } from './chromium';
import { PageTargets, type Send } from './memory-cdp';
import { relatedTargets, visitParts, type HeapUsage, type MemoryResult, type MemorySize, type SiteMemory, type TargetMemory, type VisitMemory } from './memory-figures';
import { serveStatic } from './static-server';

const fakerSeed = 42;

/** What the bench waits for, as in the start-up bench: a customer row's link to its edit page. */
const firstRow = 'table a[href*="/biz/customers/edit/"]';

/**
 * How long a visit may take to show its first row: the first visit makes the data (Otto seeds about
 * 3 500 customers a second in its DB worker on the bench machine; MSW's page makes its arrays with
 * the same faker code), the repeat visit is quicker, and MSW remakes its arrays on every visit.
 */
const visitBudgetMs = (n: number) => 60_000 + n;

function isHeapUsage(value: unknown): value is HeapUsage {
  return typeof value === 'object' && value !== null && typeof (value as HeapUsage).usedSize === 'number';
}

/**
 * One target's memory: its heap, a full collection, its heap again, and the WebAssembly memory the
 * bench's DB worker counts. A target whose thread does not run a script within 3 s (SQLite's OPFS
 * proxy, blocked in Atomics.wait) runs no collection either: its heap is the one read before.
 */
async function measureTarget(info: TargetMemory, send: Send): Promise<TargetMemory> {
  const before = await send('Runtime.getHeapUsage', {}, 5_000);
  const runs = (await send('Runtime.evaluate', { expression: '0', returnByValue: true }, 3_000)) !== undefined;
  const collected = runs && (await send('HeapProfiler.collectGarbage', {}, 60_000)) !== undefined;
  const after = collected ? await send('Runtime.getHeapUsage') : undefined;
  const wasm = collected
    ? ((await send('Runtime.evaluate', { expression: 'globalThis.__benchWasmMemoryBytes?.() ?? 0', returnByValue: true })) as { result?: { value?: unknown } } | undefined)
    : undefined;
  const heap = isHeapUsage(after) ? after : isHeapUsage(before) ? before : undefined;
  const wasmBytes = typeof wasm?.result?.value === 'number' ? wasm.result.value : 0;
  return { ...info, ...(heap ? { heap } : {}), collected, wasmBytes };
}

/** Every target of the page's memory, measured one after the other, summed into parts. */
async function measureVisit(context: BrowserContext, page: Page): Promise<VisitMemory> {
  const targets = await PageTargets.open(context, page);
  try {
    const related = relatedTargets(targets.self, await targets.list());
    const measured: TargetMemory[] = [];
    for (const info of related) {
      const blank: TargetMemory = { ...info, collected: false, wasmBytes: 0 };
      const send = info.targetId === targets.self.targetId ? targets.toPage() : await targets.attach(info.targetId).catch(() => undefined);
      // A worker that ended between the listing and the attaching has no memory left to count.
      measured.push(send ? await measureTarget(blank, send) : blank);
    }
    return visitParts(measured);
  } finally {
    await targets.close();
  }
}

/** Opens the page, waits for its first customer row, measures, closes the page. */
async function visit(context: BrowserContext, url: string, budgetMs: number, log: (line: string) => void): Promise<VisitMemory> {
  const page = await context.newPage();
  const path = new URL(url).pathname;
  page.on('console', (message) => {
    if (message.type() === 'error') log(`  [${path}] error: ${message.text()}`);
  });
  page.on('pageerror', (error) => log(`  [${path}] uncaught: ${error.message}`));
  try {
    await page.goto(url, { timeout: budgetMs });
    await page.waitForSelector(firstRow, { timeout: budgetMs });
    const firstRowMs = await page.evaluate(() => performance.now());
    return { ...(await measureVisit(context, page)), firstRowMs };
  } finally {
    await page.close();
  }
}

/** A first and a repeat visit of one site in a fresh profile and origin; a failure is kept as the figure. */
async function measureSite(distDir: string, pagePath: string, n: number, label: string, log: (line: string) => void): Promise<SiteMemory> {
  const site = await serveStatic(distDir);
  const profile = freshProfile();
  const context = await launchProfile(profile);
  const result: SiteMemory = {};
  try {
    const url = `${site.origin}${pagePath}`;
    log(`memory, ${n} customers, ${label}: first visit (fresh profile)…`);
    result.first = await visit(context, url, visitBudgetMs(n), log);
    log(`memory, ${n} customers, ${label}: repeat visit (new tab)…`);
    result.repeat = await visit(context, url, visitBudgetMs(n), log);
  } catch (error) {
    result.failure = `${label}'s page did not show ${n.toLocaleString('en')} customers within ${visitBudgetMs(n) / 1000} s: ${(error as Error).message.split('\n')[0]}`;
    log(`  ${result.failure}`);
  } finally {
    await context.close();
    removeProfile(profile);
    await site.close();
  }
  return result;
}

/**
 * The memory bench on the bench pages in `distDir` (bench/dist): per size, Otto, then MSW over
 * arrays of the same customers, each in a profile of its own.
 */
export async function benchMemory(distDir: string, sizes: readonly number[], log: (line: string) => void): Promise<MemoryResult> {
  const seedNow = Date.now();
  const results: MemorySize[] = [];
  for (const n of sizes) {
    const otto = await measureSite(distDir, `/pages/otto.html?n=${n}&list`, n, 'Otto', log);
    const msw = await measureSite(distDir, `/pages/msw.html?n=${n}&fakerSeed=${fakerSeed}&now=${seedNow}&list`, n, 'MSW', log);
    results.push({ n, otto, msw });
  }
  return { sizes: results };
}
