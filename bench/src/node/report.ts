import { customerOps, jobOps, type BenchOp, type CustomerOp } from '../shared/ops';
import { checkIssue21, ottoOverMsw } from './targets-21';
import type { Machine } from './machine';
import { checkIssue38, memoryMarkdown, type MemoryResult } from './memory-figures';
import type { RequestPathResult, SizeResult } from './request-path';
import type { RouteShipment } from './ships';
import type { StartupResult } from './startup';
import type { Summary } from './stats';

export interface BenchResults {
  machine: Machine;
  /** How the run was made: quick runs are for trying the bench, not for the record. */
  quick: boolean;
  durationSeconds: number;
  requestPath?: RequestPathResult;
  startup?: StartupResult;
  /** The same app with /api answered by MSW over arrays (the peer), measured the same way. */
  startupMsw?: StartupResult & { shipsOttoBackend: boolean };
  ships?: RouteShipment[];
  /** Memory per part of Otto's and MSW's pages, first and repeat visit, per size (memory.ts). */
  memory?: MemoryResult;
  targets: TargetCheck[];
}

export interface TargetCheck {
  /** Which issue's target: `21.3` is target 3 of issue 21; `6` the earlier targets of issue 6; `38.memory` issue 38's memory target. */
  id: string;
  target: string;
  measured: string;
  /** null: not measured by this run (or not by the bench at all). */
  met: boolean | null;
}

const listOps: CustomerOp[] = ['list-first', 'list-deep', 'search-common', 'search-rare', 'search-prefix'];
const searchOps: CustomerOp[] = ['search-common', 'search-rare', 'search-prefix'];

const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));
const pair = (s: Summary | undefined) => (s ? `${ms(s.median)} / ${ms(s.p95)}` : '–');
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? '–' : `${(a / b).toFixed(1)}x`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Checks every target of issues 21, 6 and 38 (its memory target) against the figures (null: not measured in this run). */
export function checkTargets(results: Omit<BenchResults, 'targets'>): TargetCheck[] {
  return [...checkIssue21(results), ...checkIssue6(results).map((c) => ({ ...c, id: '6' })), ...checkIssue38(results.memory)];
}

/** The targets of issue 6, kept for comparison with earlier runs. */
function checkIssue6(results: Omit<BenchResults, 'targets'>): Omit<TargetCheck, 'id'>[] {
  const checks: Omit<TargetCheck, 'id'>[] = [];
  const rp = results.requestPath;
  const big = rp?.sizes.find((s) => s.n === 100_000);
  if (big && rp) {
    const worst = listOps.map((op) => ({ op, p95: big.path[op]?.p95 ?? Number.NaN }));
    const slowest = worst.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    checks.push({
      target: 'List and search through the whole path at 100 000 customers: p95 under 10 ms',
      measured: `worst p95 ${ms(slowest.p95)} ms (${slowest.op}); ${worst.map((w) => `${w.op} ${ms(w.p95)}`).join(', ')}`,
      met: worst.every((w) => w.p95 < 10),
    });
    const floorRatios = listOps.map((op) => ({ op, r: (big.path[op]?.p95 ?? Number.NaN) / (big.floor[op]?.p95 ?? Number.NaN) }));
    checks.push({
      target: "… and under 1.5x the path's own floor (p95 / floor p95)",
      measured: floorRatios.map((f) => `${f.op} ${f.r.toFixed(1)}x`).join(', ') + ` (floor p95 ${ms(big.floor['list-first']?.p95)} ms)`,
      met: floorRatios.every((f) => f.r < 1.5),
    });
    const update = big.direct.update;
    checks.push({
      target: 'An update at 100 000 customers: under 2 ms inside the worker (median)',
      measured: `median ${ms(update?.median)} ms, p95 ${ms(update?.p95)} ms`,
      met: update ? update.median < 2 : null,
    });
    const peerRatios = searchOps.map((op) => ({ op, r: (big.peer[op]?.median ?? Number.NaN) / (big.path[op]?.median ?? Number.NaN) }));
    checks.push({
      target: 'At 100 000 customers, search at least 10x faster than MSW + array (medians, whole path)',
      measured: peerRatios.map((p) => `${p.op} ${p.r.toFixed(1)}x`).join(', '),
      met: peerRatios.every((p) => p.r >= 10),
    });
  }
  const st = results.startup;
  if (st) {
    checks.push({
      target: 'Repeat visit to the first customer row: under 500 ms (median)',
      measured: `median ${ms(st.repeatVisit.median)} ms, p95 ${ms(st.repeatVisit.p95)} ms (after a browser restart: ${ms(st.repeatAfterRestart.median)} ms)`,
      met: st.repeatVisit.median < 500,
    });
    checks.push({
      target: 'First visit to the first customer row: under 1.5 s (median)',
      measured: `median ${ms(st.firstVisit.median)} ms, p95 ${ms(st.firstVisit.p95)} ms`,
      met: st.firstVisit.median < 1500,
    });
  }
  const landing = results.ships?.find((s) => s.route === '/');
  if (landing) {
    checks.push({
      target: 'The landing page loads no SQLite and under 80 KB of gzipped JavaScript',
      measured: `${landing.loadsSqlite ? 'loads SQLite' : 'no SQLite'}; JS ${kb(landing.js.gzip)} gzip (${kb(landing.js.raw)} raw)`,
      met: !landing.loadsSqlite && landing.js.gzip < 80 * 1024,
    });
  }
  return checks;
}

function opRows(size: SizeResult, ops: readonly BenchOp[]): string[] {
  const lines = [
    '| operation | whole path | tab → DB worker | in the DB worker | floor | path ÷ worker | path ÷ floor | MSW + array | Otto ÷ MSW |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const op of ops) {
    const path = size.path[op];
    if (!path) continue;
    const peer = size.peer[op];
    lines.push(
      `| ${op} | ${pair(path)} | ${pair(size.tabToWorker[op])} | ${pair(size.direct[op])} | ${pair(size.floor[op])} | ${ratio(path.median, size.direct[op]?.median)} | ${ratio(path.median, size.floor[op]?.median)} | ${pair(peer)} | ${peer ? `${ottoOverMsw(size, op).toFixed(2)}x` : '–'} |`,
    );
  }
  lines.push('');
  return lines;
}

function sizeTable(size: SizeResult): string[] {
  return [
    `#### ${size.n.toLocaleString('en')} customers`,
    '',
    `Iterations per operation: ${size.iterations.iterations} (after ${size.iterations.warmup} warm-up), MSW peer ${size.iterations.peer}. ` +
      `Search words: common \`${size.terms.common}\` (${size.matches.common} matches), rare \`${size.terms.rare}\` (${size.matches.rare}), ` +
      `prefix \`${size.terms.prefix}\` (${size.matches.prefix}). Storage: ${size.storage}, SQLite ${size.sqliteVersion}.`,
    '',
    ...opRows(size, customerOps),
    `Jobs: ${size.jobs.count.toLocaleString('en')} seeded; job search word \`${size.jobs.term}\` (${size.jobs.matches} matches).`,
    '',
    ...opRows(size, jobOps),
  ];
}

const verdict = (met: boolean | null) => (met === null ? '–' : met ? 'met' : '**not met**');

/** The readable summary: printed at the end of the run and saved beside the JSON. */
export function toMarkdown(results: BenchResults, charts: { title: string; file: string }[] = []): string {
  const m = results.machine;
  const lines = [
    `# Otto benchmark, ${m.date.slice(0, 10)}`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; ${m.os}; Node ${m.node}; Chromium ${m.chromium}. ` +
      `Run took ${Math.round(results.durationSeconds)} s${results.quick ? ' (--quick: too few iterations for the record)' : ''}; ` +
      `load average ${m.load.start} when it started${m.load.start > m.cores * 0.75 ? ' (other work competed for the CPU: figures are noisy)' : ''}.`,
    '',
    'Times in milliseconds, as `median / p95`.',
    '',
    '## Verdicts: issue 21, "Faster than MSW everywhere"',
    '',
    '| # | target | measured | met |',
    '| --- | --- | --- | --- |',
    ...results.targets.filter((t) => t.id.startsWith('21.')).map((t) => `| ${t.id.slice(3)} | ${t.target} | ${t.measured} | ${verdict(t.met)} |`),
    '',
    '## Earlier targets (issue 6)',
    '',
    '| target | measured | met |',
    '| --- | --- | --- |',
    ...results.targets.filter((t) => t.id === '6').map((t) => `| ${t.target} | ${t.measured} | ${verdict(t.met)} |`),
    ...(results.targets.some((t) => t.id === '6') ? [] : ['| (none measured in this run: they need the 100 000 size, startup or ships) | | |']),
    '',
    '## Issue 38 targets',
    '',
    '| target | measured | met |',
    '| --- | --- | --- |',
    ...results.targets.filter((t) => t.id.startsWith('38.')).map((t) => `| ${t.target} | ${t.measured} | ${verdict(t.met)} |`),
    '',
  ];
  const rp = results.requestPath;
  if (rp) {
    lines.push(
      '## Request path',
      '',
      'Whole path: `fetch(\'/api/…\')` in the page → otto-sw.js → the tab relay → the DB worker → `api.fetch`, body read with `res.json()`. ' +
        'Tab → DB worker: the same requests with `backend.fetch` in the page, which skips the service worker (serialize, postMessage to the DB worker and back). ' +
        'In the DB worker: `api.fetch(new Request(…))` and `res.json()` inside the worker, no relay. ' +
        'Whole path, tab → DB worker and floor run in 4 interleaved rounds. ' +
        'Floor: the same page loop against a service worker that reads the request body and answers a constant 10-customer response. ' +
        'MSW + array: MSW 2 in the page, filter/sort/slice over plain arrays of the same customers and jobs, find by id for get and writes (bench/src/shared/array-handlers.ts). ' +
        'Otto ÷ MSW: whole-path medians (under 1: Otto is faster). path ÷ worker and path ÷ floor: medians. ' +
        `Timer resolution: ${rp.crossOriginIsolated ? '5 µs (cross-origin isolated bench pages)' : '100 µs'}.`,
      '',
    );
    for (const size of rp.sizes) lines.push(...sizeTable(size));
    const largest = rp.sizes.at(-1);
    if (largest) {
      lines.push(`### Query plans (${largest.n.toLocaleString('en')} customers)`, '', '| statement | EXPLAIN QUERY PLAN |', '| --- | --- |');
      for (const plan of largest.plans) lines.push(`| ${plan.label} | ${plan.plan.join('; ')} |`);
      lines.push('');
    }
    lines.push('### Seeding (inside the worker, OPFS)', '', '| customers | runs | open | migrate + seed | total |', '| --- | --- | --- | --- | --- |');
    for (const size of rp.sizes) {
      lines.push(`| ${size.n.toLocaleString('en')} | ${size.seeds.runs} | ${pair(size.seeds.open)} | ${pair(size.seeds.migrateAndSeed)} | ${pair(size.seeds.total)} |`);
    }
    lines.push('', 'Seeding generates each customer and their jobs with faker, then inserts them (one transaction, full-text triggers and job counters included).');
    for (const size of rp.sizes) {
      if (size.peerFailure) lines.push('', `No MSW figures at this size: ${size.peerFailure}.`);
      if (size.bulkLoad) {
        lines.push(
          `Bulk load without faker: ${size.bulkLoad.rows.toLocaleString('en')} ready-made customers and ${(size.bulkLoad.jobs ?? 0).toLocaleString('en')} jobs loaded as seed data (importSeedData: indexes and triggers set aside, their work done set-based) in one transaction in ${ms(size.bulkLoad.ms)} ms (one run).`,
        );
        const file = size.bulkLoad.file;
        if (file) {
          lines.push(
            `The same database as a first-start file (exportSeedDatabase, not compacted): ${(file.bytes / 1e6).toFixed(0)} MB, made in ${ms(file.makeMs)} ms; a new database made from it (put in OPFS, its dates moved to now) answered its first list ${ms(file.loadMs)} ms after it began (one run; the file was already in the worker's memory).`,
          );
        }
        const br = size.bulkLoad.backupRestore;
        if (br) {
          lines.push(
            `Backup and restore of that database (${(br.bytes / 1e6).toFixed(0)} MB, one run): the backup (exportDatabase) ${ms(br.backupMs)} ms; the restore's check (checkBackup: the file copied into a scratch OPFS file a slice at a time, integrity check, schema, migrations) ${ms(br.checkMs)} ms; putting it in place, reopening and the first list ${ms(br.replaceMs)} ms (${br.customers.toLocaleString('en')} customers).`,
          );
        }
      }
    }
    lines.push('');
  }
  const st = results.startup;
  if (st) {
    const msw = results.startupMsw;
    const otto = (v: Summary) => pair(v);
    const ratioOf = (o: Summary | undefined, m: Summary | undefined) => (o && m ? `${(o.median / m.median).toFixed(2)}x` : '–');
    const row = (label: string, o: Summary, live: Summary | undefined, m: Summary | undefined) =>
      `| ${label} | ${o.runs} | ${otto(o)} | ${live ? pair(live) : '–'} | ${m ? pair(m) : '–'} | ${ratioOf(o, m)} | ${ratioOf(live, m)} |`;
    lines.push(
      '## Start-up (production build, `vite preview`)',
      '',
      'From navigation to the first customer row of /biz/customers in the DOM. Otto, first row shown: any customer row, the kept first screen\'s included ' +
        '(the list as last drawn, shown while exactly what the database holds, before the app\'s code has loaded; decision 0009); Otto, live row: the first row the app ' +
        'itself rendered, which answers clicks: from the answer the kept screen was drawn from while its backend starts, or from its database\'s answer where no kept screen was ' +
        'shown (milestone "first screen answered by the backend": when the database\'s own answer was there). MSW: the same app built from its own Vite config with ' +
        'its backend start module swapped for one that starts MSW over arrays of the same first data (the app build\'s `otto-seed.json` customers and jobs, embedded at build time; ' +
        '`bench/build/msw-app.ts`), measured the same way, in turns with Otto (first visits and restarts alternate).' +
        (msw?.shipsOttoBackend ? ' **The MSW variant also shipped Otto backend files: its figures are too high.**' : ''),
      '',
      '| visit | runs | Otto, first row shown | Otto, live row | MSW + array | Otto ÷ MSW, shown | Otto ÷ MSW, live |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      row('first visit (fresh profile: install, open, first data: 500 customers with jobs)', st.firstVisit, st.live?.firstVisit, msw?.firstVisit),
      row('repeat visit (new tab, same profile)', st.repeatVisit, st.live?.repeatVisit, msw?.repeatVisit),
      row('repeat visit after a browser restart', st.repeatAfterRestart, st.live?.repeatAfterRestart, msw?.repeatAfterRestart),
      '',
      '| milestone (ms from navigation) | Otto first visit | Otto repeat visit | MSW first visit | MSW repeat visit |',
      '| --- | --- | --- | --- | --- |',
      ...Object.keys(st.firstVisitMilestones).map(
        (key) =>
          `| ${key} | ${pair(st.firstVisitMilestones[key])} | ${pair(st.repeatVisitMilestones[key])} | ${pair(msw?.firstVisitMilestones[key])} | ${pair(msw?.repeatVisitMilestones[key])} |`,
      ),
      '',
    );
  }
  if (results.ships) {
    lines.push('## What ships (first visit, fresh profile)', '', '| route | JS raw | JS gzip | wasm raw | wasm gzip | SQLite |', '| --- | --- | --- | --- | --- | --- |');
    for (const s of results.ships) {
      lines.push(`| ${s.route} | ${kb(s.js.raw)} | ${kb(s.js.gzip)} | ${kb(s.wasm.raw)} | ${kb(s.wasm.gzip)} | ${s.loadsSqlite ? 'yes' : 'no'} |`);
    }
    lines.push('');
    for (const s of results.ships) {
      lines.push(`Files of ${s.route} (JS and wasm): ` + s.files.filter((f) => f.kind === 'js' || f.kind === 'wasm').map((f) => `\`${f.path.replace('/assets/', '')}\` ${kb(f.gzip)}${f.seenBy === 'server' ? '*' : ''}`).join(', ') + '.', '');
    }
    lines.push('Sizes gzipped at level 6; * fetched by a service worker, not reported by Chromium to the page (counted from the server log).', '');
  }
  if (results.memory) lines.push(...memoryMarkdown(results.memory));
  if (charts.length) {
    lines.push('## Charts', '', ...charts.flatMap((c) => [`![${c.title}](./${c.file})`, '']));
  }
  return lines.join('\n');
}
