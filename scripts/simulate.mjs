#!/usr/bin/env node
// `pnpm simulate`: explores the browser host's protocol (packages/mock-backend/src/browser/host)
// over many seeded schedules, or replays one seed with its trace.
//   pnpm simulate --schedules=1000000        the long run, split over the machine's cores
//   pnpm simulate --schedules=50000 --from=7 from another first seed
//   pnpm simulate --seed=6817 --trace        replays one schedule and prints every step
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const packageDir = new URL('../packages/mock-backend/', import.meta.url).pathname;
const vitest = (env, filter) =>
  new Promise((resolve) => {
    const child = spawn('pnpm', ['exec', 'vitest', 'run', 'src/browser/host/simulate.test.ts', '-t', filter, '--silent=false', '--reporter=dot'], {
      cwd: packageDir,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });

if (args.seed) {
  process.exit(await vitest({ OTTO_SIMULATE_SEED: args.seed, OTTO_SIMULATE_TRACE: args.trace ?? 'false' }, 'replays the seed'));
}
const total = Number(args.schedules ?? 10_000);
const from = Number(args.from ?? 1);
const parts = Math.max(1, Math.min(availableParallelism(), Math.ceil(total / 10_000)));
const size = Math.ceil(total / parts);
const started = Date.now();
console.log(`otto: exploring ${total} schedules from seed ${from} in ${parts} process${parts > 1 ? 'es' : ''}…`);
const codes = await Promise.all(
  Array.from({ length: parts }, (_, i) =>
    vitest({ OTTO_SIMULATE_FROM: String(from + i * size), OTTO_SIMULATE_SCHEDULES: String(Math.min(size, total - i * size)) }, 'keeps every invariant'),
  ),
);
const failed = codes.some((code) => code !== 0);
console.log(`otto: ${total} schedules in ${Math.round((Date.now() - started) / 1000)} s: ${failed ? 'a schedule broke an invariant (its seed and replay command are above)' : 'nothing found'}.`);
process.exit(failed ? 1 : 0);
