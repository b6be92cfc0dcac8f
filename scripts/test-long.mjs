#!/usr/bin/env node
// `npm run test:long`: the long explorations that `npm test` leaves out so that a change is checked
// in minutes (decision 0041). Run after `npm test` has installed what the tests need.
//   - the bugs the host's protocol has had, put back and searched for from seed 1 (npm test runs
//     each at the seed that finds it);
//   - the host's simulator over many schedules (--schedules, default 200000), split over the cores;
//   - the browser files of apps/web/e2e/long: the soak, the 10 000-row import, and every shared
//     flow in Chromium (npm test runs the ones Chromium's own suite does not cover).
//   npm run test:long [-- --schedules=1000000]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const schedules = Number(args.schedules ?? 200_000);
const results = [];

function step(title, cmd, argv, options = {}) {
  console.log(`\n== ${title}`);
  const started = Date.now();
  const result = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', ...options, env: { ...process.env, ...options.env } });
  const ok = result.status === 0;
  console.log(`== ${title}: ${ok ? 'ok' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
  results.push({ title, ok });
  return ok;
}

/** Passed and failed tests in a vitest JSON report. */
function counts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0 };
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
step('the host’s planted bugs, searched from seed 1', 'pnpm', ['exec', 'vitest', 'run', 'src/browser/host/simulate.test.ts', '-t', 'finds the bugs', '--reporter=dot', '--silent=false'], {
  cwd: join(root, 'packages/mock-backend'),
  env: { OTTO_LONG: '1' },
});
step(`the host’s simulator, ${schedules} schedules`, 'node', ['scripts/simulate.mjs', `--schedules=${schedules}`]);
const built = step('build', 'pnpm', ['turbo', 'run', 'build', '--filter=@otto/web...', '--output-logs=errors-only']);
if (built) {
  step('long browser tests (apps/web/e2e/long)', 'pnpm', ['exec', 'vitest', 'run', '--config', 'vitest.e2e.config.ts'], {
    cwd: join(root, 'apps/web'),
    env: { OTTO_E2E: 'long', CHROMIUM_PATH: chromium },
  });
}
const browser = counts(join(root, 'apps/web/test-results/e2e-long.json'));
// The browser files count their tests; every other step counts once.
const steps = results.filter((r) => !r.title.startsWith('long browser'));
const failedSteps = results.filter((r) => !r.ok);
const passed = browser.passed + steps.filter((r) => r.ok).length;
const failed = browser.failed + steps.filter((r) => !r.ok).length + (failedSteps.length > 0 && browser.failed === 0 && steps.every((r) => r.ok) ? 1 : 0);
if (failedSteps.length > 0) console.log(`\notto: these steps failed: ${failedSteps.map((r) => r.title).join('; ')}.`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failedSteps.length === 0 ? 0 : 1);
