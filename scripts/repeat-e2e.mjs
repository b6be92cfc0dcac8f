#!/usr/bin/env node
// Runs any set of browser test files (by default the ownership ones: owner hand-overs, crashes,
// updates, live tabs, the kept screen, offline; the shared flows; sync) N times in a row against the
// current build and prints how often each file passed. A flaky file is a bug report: replay its
// schedule in the simulator. A long file is named with its folder (long/soak).
//   pnpm build && node scripts/repeat-e2e.mjs --runs=20 [--files=backend,long/soak]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const runs = Number(args.runs ?? 20);
const names = (args.files ?? 'backend,owner-crash,updates,live-tabs,kept-screen,offline,shared-flows.chromium,shared-flows.firefox,shared-flows.webkit,sync').split(',');
const webDir = new URL('../apps/web/', import.meta.url).pathname;
const passes = Object.fromEntries(names.map((n) => [n, 0]));
const started = Date.now();
for (let run = 1; run <= runs; run++) {
  for (const name of names) {
    const result = spawnSync('pnpm', ['exec', 'vitest', 'run', '--config', 'vitest.e2e.config.ts', `e2e/${name}.e2e.test.ts`], {
      cwd: webDir,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', ...(name.startsWith('long/') ? { OTTO_E2E: 'long' } : {}) },
    });
    if (result.status === 0) passes[name]++;
    else {
      const report = (() => {
        try {
          return JSON.parse(readFileSync(`${webDir}test-results/${name.startsWith('long/') ? 'e2e-long' : 'e2e'}.json`, 'utf8'));
        } catch {
          return undefined;
        }
      })();
      const failed = report?.testResults?.flatMap((f) => f.assertionResults.filter((t) => t.status === 'failed').map((t) => t.title)) ?? [];
      const logDir = `${webDir}test-results/repeat`;
      mkdirSync(logDir, { recursive: true });
      writeFileSync(`${logDir}/run-${run}-${name.replace('/', '-')}.log`, result.stdout + result.stderr);
      console.log(`run ${run}: ${name} FAILED ${failed.join(' | ')} (full output: apps/web/test-results/repeat/run-${run}-${name.replace('/', '-')}.log)`);
      console.log((result.stdout + result.stderr).split('\n').filter((l) => /Error|expected|FAIL/.test(l)).slice(0, 12).join('\n'));
    }
  }
  console.log(`after run ${run} (${Math.round((Date.now() - started) / 60000)} min): ${names.map((n) => `${n} ${passes[n]}/${run}`).join(', ')}`);
}
const all = names.every((n) => passes[n] === runs);
console.log(`${runs} runs: ${all ? 'every file passed every run' : 'some runs failed (above)'}`);
process.exit(all ? 0 : 1);
