import { describe, expect, it } from 'vitest';
import { checkIssue38, memoryMarkdown, relatedTargets, visitParts, type MemoryResult, type TargetInfo, type TargetMemory, type VisitMemory } from './memory-figures';
import { parseOptions } from './options';
import { checkTargets, toMarkdown, type BenchResults } from './report';

const mib = 1024 * 1024;
const origin = 'http://127.0.0.1:4000';

const page: TargetInfo = { targetId: 'P', type: 'page', url: `${origin}/pages/otto.html?n=500&list`, title: 'Otto bench: otto' };
const dbWorker: TargetInfo = { targetId: 'W', type: 'worker', url: `${origin}/assets/otto-db.worker-abc.js`, title: 'customers=500', parentId: 'P' };
const proxy: TargetInfo = { targetId: 'X', type: 'worker', url: `${origin}/assets/sqlite3-opfs-async-proxy-abc.js`, title: '', parentId: 'W' };
const serviceWorker: TargetInfo = { targetId: 'S', type: 'service_worker', url: `${origin}/otto-sw.js`, title: 'Service Worker' };

/** A target measured at `mb` MB of V8 heap (and nothing else unless given). */
function measured(info: TargetInfo, mb: number, more: Partial<TargetMemory> = {}): TargetMemory {
  return { ...info, heap: { usedSize: mb * mib, totalSize: 2 * mb * mib, embedderHeapUsedSize: 0, backingStorageSize: 0 }, collected: true, wasmBytes: 0, ...more };
}

/** A visit of `total` MB: page, DB worker and service worker as given (DB worker 0 for MSW). */
function visitOf(pageMb: number, workerMb: number, swMb: number): VisitMemory {
  return visitParts([measured(page, pageMb), ...(workerMb ? [measured(dbWorker, workerMb)] : []), measured(serviceWorker, swMb)]);
}

describe('relatedTargets', () => {
  it("keeps the page, the workers descending from it and its origin's service worker", () => {
    const others: TargetInfo[] = [
      { targetId: 'Q', type: 'page', url: 'http://127.0.0.1:5000/pages/msw.html', title: '' },
      { targetId: 'V', type: 'worker', url: 'http://127.0.0.1:5000/w.js', title: '', parentId: 'Q' },
      { targetId: 'T', type: 'service_worker', url: 'http://127.0.0.1:5000/mockServiceWorker.js', title: '' },
      { targetId: 'U', type: 'browser_ui', url: 'chrome://omnibox-popup.top-chrome/', title: 'Omnibox Popup' },
    ];
    // The nested worker is listed before its parent, as Chromium may list them.
    const found = relatedTargets(page, [serviceWorker, proxy, ...others, dbWorker, page]);
    expect(found.map((t) => t.targetId)).toEqual(['P', 'X', 'W', 'S']);
  });
});

describe('visitParts', () => {
  it("puts the DB worker and the worker it started in Otto's DB worker part, with its WebAssembly memory", () => {
    const parts = visitParts([
      measured(page, 2, { heap: { usedSize: 2 * mib, totalSize: 4 * mib, embedderHeapUsedSize: 0.5 * mib, backingStorageSize: 0.25 * mib } }),
      measured(dbWorker, 4, { wasmBytes: 16 * mib }),
      measured(proxy, 0.5, { collected: false }),
      measured(serviceWorker, 1),
    ]);
    expect(parts.page).toBe(2.75 * mib);
    expect(parts.dbWorker).toBe(20.5 * mib);
    expect(parts.wasm).toBe(16 * mib);
    expect(parts.serviceWorker).toBe(1 * mib);
    expect(parts.total).toBe(24.25 * mib);
    expect(parts.unread).toEqual([]);
  });

  it('counts any other worker with the page (MSW starts none) and names a target with no heap figure', () => {
    const other: TargetInfo = { targetId: 'O', type: 'worker', url: `${origin}/assets/other.js`, title: '', parentId: 'P' };
    const parts = visitParts([measured(page, 30), measured(other, 3), { ...serviceWorker, collected: false, wasmBytes: 0 }]);
    expect(parts).toMatchObject({ page: 33 * mib, dbWorker: 0, wasm: 0, serviceWorker: 0, total: 33 * mib, unread: [serviceWorker.url] });
  });
});

describe('checkIssue38', () => {
  const at100k = (otto: VisitMemory, msw: VisitMemory): MemoryResult => ({ sizes: [{ n: 100_000, otto: { first: otto, repeat: otto }, msw: { first: msw, repeat: msw } }] });

  it('is met when the repeat visit at 100 000 takes at most a quarter of MSW’s memory, with the figures', () => {
    const [check] = checkIssue38(at100k(visitOf(2, 20, 1), visitOf(100, 0, 1)));
    expect(check?.met).toBe(true);
    expect(check?.measured).toContain('Otto 23.0 MB (page 2.0, DB worker 20.0 of which WebAssembly 0.0, service worker 1.0) against MSW 101.0 MB');
    expect(check?.measured).toContain('0.228x');
  });

  it('is not met above a quarter', () => {
    expect(checkIssue38(at100k(visitOf(2, 30, 1), visitOf(100, 0, 1)))[0]?.met).toBe(false);
  });

  it('says why where it was not measured', () => {
    expect(checkIssue38(undefined)[0]).toMatchObject({ id: '38.memory', met: null, measured: expect.stringContaining('not measured in this run') });
    const failed: MemoryResult = { sizes: [{ n: 100_000, otto: { first: visitOf(2, 20, 1), repeat: visitOf(2, 20, 1) }, msw: { failure: 'out of memory' } }] };
    expect(checkIssue38(failed)[0]).toMatchObject({ met: null, measured: 'not measured: MSW: out of memory' });
  });
});

describe('the report', () => {
  const machine = { date: '2026-11-27T08:00:00.000Z', cpu: 'Xeon', cores: 2, memoryGiB: 8, os: 'Linux', node: 'v20', chromium: '156', load: { start: 0.5 } };
  const memory: MemoryResult = {
    sizes: [
      { n: 500, otto: { first: visitOf(2, 20, 1), repeat: visitOf(2, 18, 1) }, msw: { first: visitOf(4, 0, 1), repeat: visitOf(4, 0, 1) } },
      { n: 1_000_000, otto: { first: visitOf(2, 90, 1), repeat: visitOf(2, 30, 1) }, msw: { failure: "MSW's page did not show 1,000,000 customers" } },
    ],
  };

  it('has a row per size and visit, in MB, with Otto ÷ MSW', () => {
    const lines = memoryMarkdown(memory);
    expect(lines).toContain('| 500 | first | 2.0 | 20.0 (0.0) | 1.0 | 23.0 | 4.0 | 5.0 | 4.60x |');
    expect(lines).toContain('| 1,000,000 | repeat | 2.0 | 30.0 (0.0) | 1.0 | 33.0 | – | – | – |');
    expect(lines).toContain("No MSW figures at 1,000,000 customers: MSW's page did not show 1,000,000 customers.");
  });

  it('adds the issue-38 section and the memory section and keeps the others', () => {
    const partial: Omit<BenchResults, 'targets'> = { machine, quick: true, durationSeconds: 1, memory };
    const markdown = toMarkdown({ ...partial, targets: checkTargets(partial) });
    for (const heading of ['## Verdicts: issue 21', '## Earlier targets (issue 6)', '## Issue 38 targets', '## Memory']) expect(markdown).toContain(heading);
    expect(markdown).toMatch(/\| Memory on a repeat visit at 100 000 customers.*\| not measured in this run .*\| – \|/);
  });
});

describe('parseOptions', () => {
  it('runs memory with the other parts, or alone with --only=memory, at the sizes asked', () => {
    expect([...parseOptions([]).parts]).toEqual(['path', 'startup', 'ships', 'memory']);
    const alone = parseOptions(['--only=memory', '--sizes=500,100000']);
    expect([...alone.parts]).toEqual(['memory']);
    expect(alone.sizes).toEqual([500, 100_000]);
  });
});
