// The bench's history: one CSV line of headline figures per `pnpm bench` run, with the machine and
// the date, kept in git (bench/results/history.csv) while the full reports stay out of it
// (bench/results/runs/, ignored).
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { customerOps } from '../shared/ops';
import type { BenchResults } from './report';
import type { Summary } from './stats';

/** The columns of bench/results/history.csv, in order. */
export const historyColumns = [
  'date',
  'run',
  'machine',
  'load',
  'first_visit_ms',
  'first_visit_vs_msw',
  'repeat_visit_ms',
  'repeat_visit_vs_msw',
  'restart_ms',
  'restart_vs_msw',
  'list_p95_ms_at_100k',
  'search_p95_ms_at_100k',
  'highest_vs_msw',
  'landing_js_gzip_kb',
  'targets_21_met',
  'report',
] as const;

export type HistoryRow = Record<(typeof historyColumns)[number], string>;

/** How a run was made: only a full run replaces the latest report. */
export type RunKind = 'full' | 'quick' | 'partial';

const fixed = (v: number | undefined, digits: number) => (v === undefined || !Number.isFinite(v) ? '' : v.toFixed(digits));
const ratio = (a: Summary | undefined, b: Summary | undefined) => fixed(a && b ? a.median / b.median : undefined, 2);
const size = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

/**
 * One line of headline figures for a run; a figure the run did not measure is left empty.
 * @example
 * appendHistory('bench/results/history.csv', historyRow(results, 'full', 'runs/2026-11-24-1754.md'));
 */
export function historyRow(results: Omit<BenchResults, 'targets'> & Partial<Pick<BenchResults, 'targets'>>, run: RunKind, report: string): HistoryRow {
  const m = results.machine;
  const otto = results.startup;
  const msw = results.startupMsw;
  const big = results.requestPath?.sizes.find((s) => s.n === 100_000);
  const searches = (['search-common', 'search-rare', 'search-prefix'] as const).map((op) => big?.path[op]?.p95 ?? Number.NaN);
  const vsMsw = (results.requestPath?.sizes ?? []).flatMap((s) =>
    customerOps.map((op) => ({ at: `${op}@${size(s.n)}`, r: (s.path[op]?.median ?? Number.NaN) / (s.peer[op]?.median ?? Number.NaN) })),
  );
  const highest = vsMsw.filter((c) => Number.isFinite(c.r)).reduce<{ at: string; r: number } | undefined>((a, c) => (!a || c.r > a.r ? c : a), undefined);
  const landing = results.ships?.find((s) => s.route === '/');
  const issue21 = (results.targets ?? []).filter((t) => t.id.startsWith('21.') && t.met !== null);
  return {
    date: m.date.slice(0, 16).replace('T', ' '),
    run,
    machine: `${m.cpu} ${m.cores} cores ${m.memoryGiB} GiB; Node ${m.node}; Chromium ${m.chromium}`,
    load: fixed(m.load.start, 2),
    first_visit_ms: fixed(otto?.firstVisit.median, 0),
    first_visit_vs_msw: ratio(otto?.firstVisit, msw?.firstVisit),
    repeat_visit_ms: fixed(otto?.repeatVisit.median, 0),
    repeat_visit_vs_msw: ratio(otto?.repeatVisit, msw?.repeatVisit),
    restart_ms: fixed(otto?.repeatAfterRestart.median, 0),
    restart_vs_msw: ratio(otto?.repeatAfterRestart, msw?.repeatAfterRestart),
    list_p95_ms_at_100k: fixed(big?.path['list-first']?.p95, 2),
    search_p95_ms_at_100k: fixed(big ? Math.max(...searches) : undefined, 2),
    highest_vs_msw: highest ? `${highest.r.toFixed(2)} ${highest.at}` : '',
    landing_js_gzip_kb: fixed(landing ? landing.js.gzip / 1024 : undefined, 1),
    targets_21_met: issue21.length ? `${issue21.filter((t) => t.met).length}/${issue21.length}` : '',
    report,
  };
}

const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** The row as one CSV line (RFC 4180 quoting), without the line break. */
export function toCsvLine(row: HistoryRow): string {
  return historyColumns.map((c) => cell(row[c])).join(',');
}

/** Appends the row to the history file, writing the header first when the file is new. */
export function appendHistory(file: string, row: HistoryRow): void {
  if (!existsSync(file) || readFileSync(file, 'utf8').trim() === '') writeFileSync(file, `${historyColumns.join(',')}\n`);
  appendFileSync(file, `${toCsvLine(row)}\n`);
}
