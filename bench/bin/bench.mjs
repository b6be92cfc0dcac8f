#!/usr/bin/env node
// Runs the TypeScript benchmark runner on Node 20 through Vite's module runner (no build step).
/* global console, process */
import { runEntry } from './run-entry.mjs';

if (process.argv.includes('--help')) {
  console.log(`pnpm bench [options]: Otto in Chromium: the request path, start-up against MSW, what ships, memory.

  --quick            few iterations everywhere: to try the bench, not for the record
  --only=path,startup,ships,memory   run only these parts (default: all four)
  --sizes=500,10000  database sizes for the request path and memory (default: 500,10000,100000)
  --skip-build       reuse apps/web/dist, bench/dist and bench/dist-msw-app as they are
  --pragmas=SQL      SQL for the direct worker's database before its loops (experiments only)

Writes bench/results/runs/<date>-<time>[-quick|-partial].{json,md,svg} (ignored by git) and appends
a line to bench/results/history.csv; a full run (all parts, default sizes, no --quick) also replaces
bench/results/latest.{md,json} and latest-*.svg. Commit history.csv and, after a full run, latest.*.`);
} else {
  await runEntry('../src/node/main.ts');
}
