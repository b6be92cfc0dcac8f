#!/usr/bin/env node
// Runs any set of browser test files (by default the ownership ones: owner hand-overs, crashes,
// updates, live tabs, the kept screen, offline; the shared flows; sync) N times in a row against the
// current build and prints how often each file passed. A flaky file is a bug report: replay its
// schedule in the simulator. A long file is named with its folder (long/soak).
//   pnpm build && node scripts/repeat-e2e.mjs --runs=20 [--files=backend,long/soak] [--together]
// By default each file runs alone, one after another; `--together` runs a round's files in one
// Vitest run, two at a time and heaviest first, as `npm test` does (the load they meet there, in
// about half the time).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const runs = Number(args.runs ?? 20);
const together = 'together' in args;
const names = (args.files ?? 'backend,owner-crash,updates,live-tabs,kept-screen,offline,shared-flows.chromium,shared-flows.firefox,shared-flows.webkit,sync').split(',');
const webDir = new URL('../apps/web/', import.meta.url).pathname;
const passes = Object.fromEntries(names.map((n) => [n, 0]));
const started = Date.now();
const isLong = (name) => name.startsWith('long/');
if (together && names.some(isLong) && !names.every(isLong)) {
  console.error('repeat-e2e: --together runs files of one kind: all from e2e/ or all from e2e/long/.');
  process.exit(2);
}

/** The JSON report Vitest wrote for the last run (undefined when there is none). */
function report(long) {
  try {
    return JSON.parse(readFileSync(`${webDir}test-results/${long ? 'e2e-long' : 'e2e'}.json`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Runs `files` in one Vitest run; answers the run's output and each file's failed tests (undefined: no result for the file). */
function runFiles(files) {
  const long = files.some(isLong);
  const result = spawnSync('pnpm', ['exec', 'vitest', 'run', '--config', 'vitest.e2e.config.ts', ...files.map((name) => `e2e/${name}.e2e.test.ts`)], {
    cwd: webDir,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', ...(long ? { OTTO_E2E: 'long' } : {}), ...(files.length === 1 ? { OTTO_E2E_WORKERS: '1' } : {}) },
  });
  const testResults = report(long)?.testResults ?? [];
  const failedIn = (name) => {
    const file = testResults.find((f) => f.name.endsWith(`/e2e/${name}.e2e.test.ts`));
    if (!file) return undefined;
    return file.assertionResults.filter((t) => t.status !== 'passed').map((t) => t.title);
  };
  return { output: result.stdout + result.stderr, status: result.status, failed: Object.fromEntries(files.map((name) => [name, failedIn(name)])) };
}

function record(run, name, failed, output) {
  const logDir = `${webDir}test-results/repeat`;
  mkdirSync(logDir, { recursive: true });
  const log = `run-${run}-${name.replace('/', '-')}.log`;
  writeFileSync(`${logDir}/${log}`, output);
  console.log(`run ${run}: ${name} FAILED ${failed ? failed.join(' | ') : '(no result: the run stopped before it)'} (full output: apps/web/test-results/repeat/${log})`);
  console.log(output.split('\n').filter((l) => /Error|expected|FAIL/.test(l)).slice(0, 12).join('\n'));
}

for (let run = 1; run <= runs; run++) {
  const rounds = together ? [names] : names.map((name) => [name]);
  for (const files of rounds) {
    const { output, status, failed } = runFiles(files);
    // With OTTO_E2E_SHOW_ALLOWED=1, what each named problem let through in this round.
    if (process.env.OTTO_E2E_SHOW_ALLOWED === '1') for (const line of output.split('\n').filter((l) => /allowed (by|\()/.test(l))) console.log(`run ${run}: ${line.trim()}`);
    // A run that failed with every test passed failed outside a test (an unhandled error, a hook):
    // it counts against every file of the run, as no file can be cleared of it.
    const outsideATest = status !== 0 && files.every((name) => failed[name]?.length === 0);
    for (const name of files) {
      const failures = failed[name];
      if (failures !== undefined && failures.length === 0 && !outsideATest) passes[name]++;
      else record(run, name, outsideATest ? ['the run failed outside a test'] : failures, output);
    }
  }
  console.log(`after run ${run} (${Math.round((Date.now() - started) / 60000)} min): ${names.map((n) => `${n} ${passes[n]}/${run}`).join(', ')}`);
}
const all = names.every((n) => passes[n] === runs);
console.log(`${runs} runs: ${all ? 'every file passed every run' : 'some runs failed (above)'}`);
process.exit(all ? 0 : 1);
