#!/usr/bin/env node
// `pnpm soak`: the full-size soak of issue 12, item 5 (the normal test run has a reduced one).
//   1. otto-mock-server under 50 concurrent loopback clients, 10 000 mixed requests, killed with
//      SIGKILL half way and restarted on the same file (packages/mock-backend/test/server-soak.test.ts);
//   2. 10 000 mixed requests from three Chromium tabs through the service worker, the owning tab
//      closed twice (apps/web/e2e/long/soak.e2e.test.ts; builds the app first).
// Each writes its figures to JSON; this script prints them and writes bench/results/runs/soak-<date>.json (ignored by git).
// `pnpm soak server` or `pnpm soak browser` runs one of them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const which = process.argv[2] ?? 'all';
if (!['all', 'server', 'browser'].includes(which)) {
  console.error('usage: pnpm soak [all|server|browser]');
  process.exit(2);
}
const pnpm = process.platform === 'win32' ? 'pnpm.cmd' : 'pnpm';
const run = (args, options = {}) => spawnSync(pnpm, args, { cwd: root, stdio: 'inherit', ...options }).status ?? 1;

const started = new Date();
const loadBefore = loadavg();
const parts = {};
let failed = false;

function soak(name, cwd, args) {
  const reportFile = join(tmpdir(), `otto-soak-${name}-${process.pid}.json`);
  rmSync(reportFile, { force: true });
  console.log(`\nsoak: ${name}…`);
  const status = run(args, { cwd: join(root, cwd), env: { ...process.env, OTTO_SOAK: 'full', OTTO_SOAK_REPORT: reportFile } });
  if (status !== 0) failed = true;
  parts[name] = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : { error: `no report (exit ${status})` };
  // Every request sent is answered or was cut off by the test (the kill, a closed tab); the test
  // asserts it, and so does this script, from the figures it reports.
  const f = parts[name].figures;
  const cutOff = f ? Object.values(f.cutOff ?? {}).reduce((a, b) => a + b, 0) : 0;
  const everyRequestCounted = f ? f.noAnswer === 0 && f.answered + cutOff === f.requests : false;
  if (f && !everyRequestCounted) failed = true;
  parts[name].passed = status === 0 && everyRequestCounted;
  rmSync(reportFile, { force: true });
}

if (which !== 'browser') soak('server', 'packages/mock-backend', ['exec', 'vitest', 'run', 'test/server-soak.test.ts']);
if (which !== 'server') {
  if (run(['turbo', 'run', 'build', '--filter=@otto/web...', '--output-logs=errors-only']) !== 0) {
    failed = true;
    parts.browser = { error: 'the build failed', passed: false };
  } else {
    soak('browser', 'apps/web', ['exec', 'vitest', 'run', '--config', 'vitest.e2e.config.ts', 'e2e/long/soak.e2e.test.ts']);
  }
}

const report = {
  date: started.toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: loadavg() },
  ...parts,
};
const dir = join(root, 'bench', 'results', 'runs');
mkdirSync(dir, { recursive: true });
const out = join(dir, `soak-${started.toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

console.log('\nsoak figures');
console.log(`  machine: ${report.machine.cpus} × ${report.machine.model}, Node ${report.machine.node}; load average before ${loadBefore.map((n) => n.toFixed(2)).join(' ')}, after ${report.machine.loadAverageAfter.map((n) => n.toFixed(2)).join(' ')}`);
for (const [name, part] of Object.entries(parts)) {
  if (!part.figures) {
    console.log(`  ${name}: ${part.error}`);
    continue;
  }
  const f = part.figures;
  const v = part.verification;
  console.log(
    `  ${name}: ${part.passed ? 'held' : 'FAILED'}; ${f.requests} requests, ${f.clients} clients, ${(f.durationMs / 1000).toFixed(1)} s; ` +
      `${f.answered} answered, ${Object.values(f.cutOff ?? {}).reduce((a, b) => a + b, 0)} cut off by the test ${JSON.stringify(f.cutOff ?? {})}, ${f.noAnswer} without an answer; statuses ${JSON.stringify(f.byStatus)}; ` +
      `${f.acknowledgedWrites} writes acknowledged (${f.unknownWrites} unknown); ${v.customersChecked} customers + ${v.jobsChecked} jobs checked, ${v.missing.length} missing, ${v.wrong.length} wrong; ` +
      `5xx: ${f.serverErrors.length}; integrity_check: ${part.integrityCheck.join(', ')}` +
      (part.killedAtRequest ? `; SIGKILL at request ${part.killedAtRequest}, restart ${part.restartMs} ms` : '') +
      (part.ownerClosings ? `; owner closed at ${part.ownerClosings.map((c) => `${c.atRequest} (new owner after ${c.newOwnerAfterMs} ms)`).join(', ')}` : ''),
  );
}
console.log(`  report: ${out}`);
process.exit(failed ? 1 : 0);
