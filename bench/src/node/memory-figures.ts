// The memory bench's figures (src/node/memory.ts measures them in Chromium): which targets make up
// each part of a site, their sums, the issue-38 target and the report's table. No browser here.
import type { TargetCheck } from './report';

/** A Chromium target as CDP's Target domain describes it. */
export interface TargetInfo {
  targetId: string;
  /** `page`, `worker` (a dedicated worker), `service_worker`, … */
  type: string;
  url: string;
  /** A dedicated worker's name, a page's title. */
  title: string;
  /** A dedicated worker's parent: the page or the worker that started it. */
  parentId?: string;
}

/** CDP's Runtime.getHeapUsage, in bytes. */
export interface HeapUsage {
  /** V8's used heap. */
  usedSize: number;
  totalSize: number;
  /** Blink's heap (Oilpan: DOM nodes and the other C++ objects scripts reach). */
  embedderHeapUsedSize?: number;
  /** ArrayBuffer backing stores (not WebAssembly memories). */
  backingStorageSize?: number;
}

/** One target as measured. */
export interface TargetMemory extends TargetInfo {
  /** After HeapProfiler.collectGarbage; from before it when the collection did not answer. */
  heap?: HeapUsage;
  /** Whether the target answered HeapProfiler.collectGarbage. */
  collected: boolean;
  /** Its WebAssembly memories (the bench's DB worker reports them; 0 where nothing does). */
  wasmBytes: number;
}

/** One visit's memory by part, in bytes. */
export interface VisitMemory {
  /** The page, and for MSW every dedicated worker it started (it starts none). */
  page: number;
  /** Otto's DB worker with the workers it started (SQLite's OPFS proxy), WebAssembly memory included; 0 for MSW. */
  dbWorker: number;
  /** The WebAssembly memory within `dbWorker`. */
  wasm: number;
  serviceWorker: number;
  total: number;
  targets: TargetMemory[];
  /** Targets whose heap could not be read (their part is short of them). */
  unread: string[];
  /** When the first customer row was there, ms from the navigation's start (read just after it appeared). */
  firstRowMs?: number;
}

export interface SiteMemory {
  first?: VisitMemory;
  repeat?: VisitMemory;
  /** Why the site has no (or only a first visit's) figures at this size. */
  failure?: string;
}

export interface MemorySize {
  n: number;
  otto: SiteMemory;
  msw: SiteMemory;
}

export interface MemoryResult {
  sizes: MemorySize[];
}

/** The bench's DB worker: the script otto-db.worker.ts is built to. */
const dbWorkerScript = /otto-db\.worker/;

/**
 * The targets a page's memory lives in: the page, every dedicated worker descending from it (a
 * worker's worker too), and the service workers of its origin.
 * @example
 * relatedTargets(page, await targets.list()); // [page, DB worker, SQLite's OPFS proxy, otto-sw.js]
 */
export function relatedTargets(page: TargetInfo, all: readonly TargetInfo[]): TargetInfo[] {
  const origin = new URL(page.url).origin;
  const mine = new Set([page.targetId]);
  // Parents come before children nowhere in particular: sweep until nothing is added.
  for (let added = true; added; ) {
    added = false;
    for (const t of all) {
      if (t.type === 'worker' && t.parentId && mine.has(t.parentId) && !mine.has(t.targetId)) {
        mine.add(t.targetId);
        added = true;
      }
    }
  }
  const serviceWorkers = all.filter((t) => t.type === 'service_worker' && URL.canParse(t.url) && new URL(t.url).origin === origin);
  return [page, ...all.filter((t) => t.type === 'worker' && mine.has(t.targetId)), ...serviceWorkers];
}

/** What Chromium reports for a target (V8 heap, Blink heap, array buffers) plus its WebAssembly memory. */
export function targetBytes(t: TargetMemory): number {
  const heap = t.heap ? t.heap.usedSize + (t.heap.embedderHeapUsedSize ?? 0) + (t.heap.backingStorageSize ?? 0) : 0;
  return heap + t.wasmBytes;
}

/** The page's worker that `t` descends from (itself when the page started it), undefined for others. */
function topWorker(t: TargetMemory, byId: Map<string, TargetMemory>, pageId: string): TargetMemory | undefined {
  let current: TargetMemory | undefined = t;
  while (current?.type === 'worker' && current.parentId !== pageId) current = current.parentId ? byId.get(current.parentId) : undefined;
  return current?.type === 'worker' ? current : undefined;
}

/**
 * Sums a visit's targets into its parts: the page (and workers other than the DB worker), the DB
 * worker with the workers it started, the service workers.
 */
export function visitParts(targets: readonly TargetMemory[]): VisitMemory {
  const page = targets.find((t) => t.type === 'page');
  const byId = new Map(targets.map((t) => [t.targetId, t]));
  const parts = { page: 0, dbWorker: 0, wasm: 0, serviceWorker: 0 };
  for (const t of targets) {
    const bytes = targetBytes(t);
    if (t.type === 'service_worker') parts.serviceWorker += bytes;
    else if (t.type === 'worker' && page && dbWorkerScript.test(topWorker(t, byId, page.targetId)?.url ?? '')) {
      parts.dbWorker += bytes;
      parts.wasm += t.wasmBytes;
    } else parts.page += bytes;
  }
  return {
    ...parts,
    total: parts.page + parts.dbWorker + parts.serviceWorker,
    targets: [...targets],
    unread: targets.filter((t) => !t.heap).map((t) => t.url),
  };
}

const mib = 1024 * 1024;
/** Megabytes of 1 048 576 bytes, one decimal. */
export const mb = (bytes: number | undefined) => (bytes === undefined ? '–' : (bytes / mib).toFixed(1));
const size = (n: number) => n.toLocaleString('en');

/** Otto's total over MSW's for one visit, NaN where either is missing. */
export function ottoOverMswMemory(otto: VisitMemory | undefined, msw: VisitMemory | undefined): number {
  return otto && msw && msw.total > 0 ? otto.total / msw.total : Number.NaN;
}

const memoryTarget =
  "Memory on a repeat visit at 100 000 customers: Otto's (page, DB worker with SQLite's WebAssembly memory, service worker) at most a quarter of MSW's (page, service worker)";

/** The memory target of issue 38; null where this run did not measure it. */
export function checkIssue38(memory: MemoryResult | undefined): TargetCheck[] {
  const at = memory?.sizes.find((s) => s.n === 100_000);
  const otto = at?.otto.repeat;
  const msw = at?.msw.repeat;
  if (!otto || !msw) {
    const why = !at
      ? 'not measured in this run (the memory part at 100 000 customers)'
      : `not measured: ${[at.otto.failure && `Otto: ${at.otto.failure}`, at.msw.failure && `MSW: ${at.msw.failure}`].filter(Boolean).join('; ') || 'a repeat visit is missing'}`;
    return [{ id: '38.memory', target: memoryTarget, measured: why, met: null }];
  }
  const r = ottoOverMswMemory(otto, msw);
  return [
    {
      id: '38.memory',
      target: memoryTarget,
      measured:
        `Otto ${mb(otto.total)} MB (page ${mb(otto.page)}, DB worker ${mb(otto.dbWorker)} of which WebAssembly ${mb(otto.wasm)}, service worker ${mb(otto.serviceWorker)}) ` +
        `against MSW ${mb(msw.total)} MB (page ${mb(msw.page)}, service worker ${mb(msw.serviceWorker)}): ${r.toFixed(3)}x`,
      met: r <= 0.25,
    },
  ];
}

/** The report's "Memory" section. */
export function memoryMarkdown(memory: MemoryResult): string[] {
  const lines = [
    '## Memory',
    '',
    'Memory once the customer list\'s first row is shown, in MB (1 MB = 1 048 576 bytes), per part, on the bench pages (bench/dist, cross-origin isolated), ' +
      'each site at each size in a fresh profile (a browser of its own). Otto: `otto.html` (startBrowserBackend, the bench\'s DB worker, which is the app\'s ' +
      'serveMockApiInWorker, and otto-sw.js); MSW: `msw.html` (MSW 2 in the page over arrays, its mockServiceWorker.js). Both are opened with `?list`: ' +
      'once the backend is ready the page asks for the list\'s first page as the app does (10 rows) and draws its rows. ' +
      '**First visit**: fresh profile; Otto\'s DB worker seeds the customers and their jobs into OPFS with the bench\'s seed code (faker seed 42, as on the ' +
      'request-path pages) while otto-sw.js installs; MSW\'s page makes its arrays of the same customers with the same code. **Repeat visit**: a new tab in ' +
      'the same profile after the first closed: Otto opens the database on disk, MSW makes its arrays again.',
    '',
    '**Method, every figure**: CDP, per target (the page through Playwright\'s CDP session; each dedicated worker and the origin\'s service worker attached ' +
      'from it with Target.attachToTarget): `HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage`: V8\'s used heap + Blink\'s heap ' +
      '(`embedderHeapUsedSize`: DOM and other C++ objects) + ArrayBuffer backing stores (`backingStorageSize`). **Otto\'s DB worker** adds its WebAssembly ' +
      'memory (SQLite\'s linear memory, `memory.buffer.byteLength` read in the worker by bench/src/workers/wasm-memories.ts), which none of Chromium\'s ' +
      'figures includes, and the worker SQLite starts beside it in a cross-origin-isolated page (its OPFS proxy, about 1 MB, blocked in `Atomics.wait`: read ' +
      'without a collection; the app, not isolated, starts none). **Service workers**: the same CDP figures (JavaScript heap, Blink heap, array buffers; they hold no WebAssembly memory). ' +
      'Not `performance.measureUserAgentSpecificMemory`: in this Chromium it leaves WebAssembly memories out as well, and in Otto\'s page it waits 60 s for ' +
      'the blocked proxy worker. Not counted anywhere: compiled code, the renderer\'s memory outside these heaps; the page figures include Playwright\'s ' +
      'injected script on both sides alike. The bench pages carry no app UI: the app\'s shell (React, its routes; the same on both sides) is not in these figures.',
    '',
    '| customers | visit | Otto page | Otto DB worker (WebAssembly) | Otto service worker | Otto total | MSW page (+ its workers) | MSW total | Otto ÷ MSW |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const s of memory.sizes) {
    for (const visit of ['first', 'repeat'] as const) {
      const o = s.otto[visit];
      const m = s.msw[visit];
      const r = ottoOverMswMemory(o, m);
      lines.push(
        `| ${size(s.n)} | ${visit} | ${mb(o?.page)} | ${o ? `${mb(o.dbWorker)} (${mb(o.wasm)})` : '–'} | ${mb(o?.serviceWorker)} | ${mb(o?.total)} | ` +
          `${mb(m?.page)} | ${mb(m?.total)} | ${Number.isFinite(r) ? `${r.toFixed(2)}x` : '–'} |`,
      );
    }
  }
  lines.push(
    '',
    'The same visits, from navigation to the first customer row (ms; read just after the row appeared, one visit each: a rough figure; the start-up bench measures start-up): ' +
      'for Otto at the largest sizes this is the start-up with that much data (a first visit seeds it, a repeat visit opens it).',
    '',
    '| customers | visit | Otto | MSW |',
    '| --- | --- | --- | --- |',
  );
  const at = (v: VisitMemory | undefined) => (v?.firstRowMs === undefined ? '–' : String(Math.round(v.firstRowMs)));
  for (const s of memory.sizes) {
    for (const visit of ['first', 'repeat'] as const) lines.push(`| ${size(s.n)} | ${visit} | ${at(s.otto[visit])} | ${at(s.msw[visit])} |`);
  }
  lines.push('');
  for (const s of memory.sizes) {
    for (const [name, site] of [['Otto', s.otto], ['MSW', s.msw]] as const) {
      if (site.failure) lines.push(`No ${site.first ? 'repeat-visit ' : ''}${name} figures at ${size(s.n)} customers: ${site.failure}.`, '');
      const unread = [...(site.first?.unread ?? []), ...(site.repeat?.unread ?? [])];
      if (unread.length) lines.push(`${name} at ${size(s.n)}: no heap figure from ${[...new Set(unread)].join(', ')} (left out of its part).`, '');
    }
  }
  return lines;
}
