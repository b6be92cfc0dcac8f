import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { customerOps } from '../shared/ops';
import { appendHistory, historyColumns, historyRow, toCsvLine } from './history';
import type { BenchResults } from './report';
import type { OpSummaries, SizeResult } from './request-path';
import { summarize } from './stats';

const flat = (ms: number) => summarize([ms, ms, ms]);
const ops = (ms: number): OpSummaries => Object.fromEntries(customerOps.map((op) => [op, flat(ms)]));
const size = (n: number, path: number, peer: number) => ({ n, path: ops(path), peer: ops(peer) }) as unknown as SizeResult;

const machine = { date: '2026-11-26T12:34:56.000Z', cpu: 'AMD EPYC', cores: 2, memoryGiB: 23.5, os: 'Linux', node: 'v20', chromium: '156', load: { start: 1.234 } };
const startup = (first: number, repeat: number, restart: number) => ({
  firstVisit: flat(first),
  repeatVisit: flat(repeat),
  repeatAfterRestart: flat(restart),
  firstVisitMilestones: {},
  repeatVisitMilestones: {},
});

const full: Omit<BenchResults, 'targets'> = {
  machine,
  quick: false,
  durationSeconds: 1,
  requestPath: { crossOriginIsolated: true, sizes: [size(500, 2, 4), size(100_000, 3, 4)] },
  startup: startup(300, 100, 200),
  startupMsw: { ...startup(600, 400, 400), shipsOttoBackend: false },
  ships: [{ route: '/', files: [], js: { raw: 0, gzip: 2048 }, wasm: { raw: 0, gzip: 0 }, loadsSqlite: false, fakerIn: [] }] as unknown as BenchResults['ships'],
};

describe('historyRow', () => {
  it('keeps the headline figures of a full run with its machine and date', () => {
    const targets = [
      { id: '21.1', target: '', measured: '', met: true },
      { id: '21.2', target: '', measured: '', met: false },
      { id: '21.8', target: '', measured: '', met: null },
      { id: '6', target: '', measured: '', met: true },
    ];
    expect(historyRow({ ...full, targets }, 'full', 'runs/2026-11-26-1234.md')).toEqual({
      date: '2026-11-26 12:34',
      run: 'full',
      machine: 'AMD EPYC 2 cores 23.5 GiB; Node v20; Chromium 156',
      load: '1.23',
      first_visit_ms: '300',
      first_visit_vs_msw: '0.50',
      repeat_visit_ms: '100',
      repeat_visit_vs_msw: '0.25',
      restart_ms: '200',
      restart_vs_msw: '0.50',
      list_p95_ms_at_100k: '3.00',
      search_p95_ms_at_100k: '3.00',
      highest_vs_msw: '0.75 list-first@100k',
      landing_js_gzip_kb: '2.0',
      targets_21_met: '1/2',
      report: 'runs/2026-11-26-1234.md',
    });
  });

  it('leaves empty what a partial run did not measure', () => {
    const row = historyRow({ machine, quick: true, durationSeconds: 1 }, 'quick', 'runs/x.md');
    expect(row.first_visit_ms).toBe('');
    expect(row.highest_vs_msw).toBe('');
    expect(row.targets_21_met).toBe('');
  });
});

describe('appendHistory', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the header once, then one quoted CSV line per run', () => {
    dir = mkdtempSync(join(tmpdir(), 'otto-history-'));
    const file = join(dir, 'history.csv');
    const row = historyRow(full, 'full', 'a "quoted", report');
    appendHistory(file, row);
    appendHistory(file, row);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toEqual([historyColumns.join(','), toCsvLine(row), toCsvLine(row)]);
    expect(lines[1]).toContain(',"a ""quoted"", report"');
  });
});
