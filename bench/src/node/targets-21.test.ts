import { describe, expect, it } from 'vitest';
import { benchOps, jobOps } from '../shared/ops';
import type { BenchResults } from './report';
import type { OpSummaries, SizeResult } from './request-path';
import type { StartupResult } from './startup';
import { summarize } from './stats';
import { checkIssue21 } from './targets-21';

const flat = (ms: number) => summarize([ms, ms, ms]);
const all = (ms: number, overrides: OpSummaries = {}): OpSummaries => ({ ...Object.fromEntries(benchOps.map((op) => [op, flat(ms)])), ...overrides });

function size(n: number, path: OpSummaries, peer: OpSummaries): SizeResult {
  return {
    n,
    iterations: { warmup: 1, iterations: 3, peer: 3 },
    terms: { common: 'gmail', rare: 'x', prefix: 'mar' },
    matches: { common: 1, rare: 1, prefix: 1 },
    jobs: { count: 10, term: 'repair', matches: 1 },
    storage: 'opfs',
    sqliteVersion: '3',
    seeds: { runs: 1, total: flat(1), open: flat(1), migrateAndSeed: flat(1) },
    path,
    direct: all(0.5),
    tabToWorker: all(1),
    floor: all(3),
    peer,
    plans: [],
  };
}

const startup = (first: number, repeat: number, restart: number): StartupResult => ({
  firstVisit: flat(first),
  repeatVisit: flat(repeat),
  repeatAfterRestart: flat(restart),
  firstVisitMilestones: {},
  repeatVisitMilestones: {},
});

const base: Omit<BenchResults, 'targets'> = {
  machine: { date: '2026-11-23T00:00:00Z', cpu: 'x', cores: 2, memoryGiB: 1, os: 'x', node: 'x', chromium: 'x', load: { start: 0 } },
  quick: true,
  durationSeconds: 1,
};

const verdict = (results: Omit<BenchResults, 'targets'>, id: string) => checkIssue21(results).find((t) => t.id === id);

describe('checkIssue21', () => {
  it('gives a verdict for each of the eight targets, unmeasured ones as null', () => {
    const checks = checkIssue21(base);
    expect(checks.map((c) => c.id)).toEqual(['21.1', '21.2', '21.3', '21.4', '21.5', '21.6', '21.7', '21.8']);
    expect(checks.every((c) => c.met === null)).toBe(true);
  });

  it('fails target 3 naming every operation and size slower than MSW, and passes it when none is', () => {
    const slowCreate = size(500, all(4, { create: flat(9) }), all(8));
    const three = verdict({ ...base, requestPath: { crossOriginIsolated: true, sizes: [slowCreate, size(100_000, all(4), all(8))] } }, '21.3');
    expect(three).toMatchObject({ met: false, measured: expect.stringContaining('create at 500 1.13x') });
    expect(verdict({ ...base, requestPath: { crossOriginIsolated: true, sizes: [size(500, all(4), all(8))] } }, '21.3')?.met).toBe(true);
  });

  it('judges the jobs by their p95 through the whole path at 100 000 customers', () => {
    const fast = size(100_000, all(4), all(8));
    expect(verdict({ ...base, requestPath: { crossOriginIsolated: true, sizes: [fast] } }, '21.7')?.met).toBe(true);
    const slow = size(100_000, all(4, { [jobOps[8]]: summarize([4, 4, 12]) }), all(8));
    expect(verdict({ ...base, requestPath: { crossOriginIsolated: true, sizes: [slow] } }, '21.7')).toMatchObject({
      met: false,
      measured: expect.stringContaining('jobs-counts 12.0'),
    });
  });

  it('compares start-up with MSW visit by visit, and flags a variant that ships Otto', () => {
    const results = { ...base, startup: startup(900, 200, 700), startupMsw: { ...startup(1000, 300, 800), shipsOttoBackend: false } };
    expect(verdict(results, '21.1')).toMatchObject({ met: true, measured: expect.stringContaining('first visit 0.90x') });
    expect(verdict(results, '21.2')?.met).toBe(true);
    const leaky = { ...results, startupMsw: { ...results.startupMsw, shipsOttoBackend: true } };
    expect(verdict(leaky, '21.1')?.met).toBe(false);
    expect(verdict({ ...results, startup: startup(900, 250, 700) }, '21.2')?.met).toBe(false);
  });

  it('judges the first row shown and reports the live row beside it', () => {
    const kept = { ...startup(900, 100, 200), live: { firstVisit: flat(900), repeatVisit: flat(270), repeatAfterRestart: flat(600) } };
    const results = { ...base, startup: kept, startupMsw: { ...startup(1000, 300, 800), shipsOttoBackend: false } };
    const two = verdict(results, '21.2');
    expect(two?.met).toBe(true);
    expect(two?.measured).toContain('repeat visit 0.33x');
    expect(two?.measured).toContain('the live row');
    expect(two?.measured).toContain('repeat 0.90x (270 ms)');
  });
});
