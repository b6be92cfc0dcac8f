#!/usr/bin/env node
// The one entry point a fresh machine needs (Node 20 and npm): installs what is missing, then
// starts the app (`npm start`) or runs every test (`npm test`).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const command = process.argv[2];

function run(cmd, args, options = {}) {
  console.log(`\n> ${[cmd, ...args].join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function must(cmd, args, options) {
  const status = run(cmd, args, options);
  if (status !== 0) {
    console.error(`\notto: "${[cmd, ...args].join(' ')}" failed (exit ${status}).`);
    process.exit(status);
  }
}

function quiet(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** pnpm 10, installed globally when npm may, else run through npx. */
function findPnpm() {
  if (quiet('pnpm', ['--version'])?.startsWith('10.')) return ['pnpm'];
  console.log(`otto: installing pnpm ${pnpmVersion}…`);
  if (run('npm', ['install', '--global', `pnpm@${pnpmVersion}`]) === 0 && quiet('pnpm', ['--version'])?.startsWith('10.')) {
    return ['pnpm'];
  }
  console.log('otto: a global install was not possible; using npx.');
  return ['npx', '--yes', `pnpm@${pnpmVersion}`];
}

/** Debian's Chromium for the browser tests: installed with apt when missing and we are root. */
function ensureChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && quiet('apt-get', ['--version'])) {
    console.log('otto: installing Chromium from Debian for the browser tests…');
    must('apt-get', ['update']);
    must('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  }
  console.error(
    'otto: the browser tests need Chromium. Install it (Debian: `sudo apt-get install chromium`) or set CHROMIUM_PATH to its executable.',
  );
  process.exit(1);
}

/** Sums the JSON reports vitest wrote, for one closing line. */
function summarize() {
  let passed = 0;
  let failed = 0;
  const dirs = ['apps', 'packages', 'tooling'].flatMap((group) =>
    readdirSync(join(root, group)).map((name) => join(root, group, name, 'test-results')),
  );
  for (const dir of dirs.filter((d) => existsSync(d))) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      passed += report.numPassedTests ?? 0;
      failed += report.numFailedTests ?? 0;
    }
  }
  return { passed, failed };
}

const pnpm = findPnpm();
const pn = (args, options) => must(pnpm[0], [...pnpm.slice(1), ...args], options);
pn(['install', ...(process.env.CI ? ['--frozen-lockfile'] : [])]);

if (command === 'start') {
  pn(['turbo', 'run', 'build', '--filter=@otto/web...']);
  console.log('\notto: open http://localhost:4173 (Ctrl+C stops the app)');
  pn(['--filter', '@otto/web', 'preview']);
} else if (command === 'test') {
  const chromium = ensureChromium();
  for (const dir of ['apps', 'packages', 'tooling'].flatMap((g) => readdirSync(join(root, g)).map((n) => join(root, g, n, 'test-results')))) {
    rmSync(dir, { recursive: true, force: true });
  }
  const env = { ...process.env, CHROMIUM_PATH: chromium };
  pn(['turbo', 'run', 'lint', 'typecheck', 'test', 'build', '--concurrency=2'], { env });
  // Browser tests run alone: each drives a real Chromium and the machine may have two cores.
  pn(['turbo', 'run', 'test:e2e', '--concurrency=1'], { env });
  const { passed, failed } = summarize();
  console.log(`\notto: every check passed.\n${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
} else {
  console.error('usage: node scripts/otto.mjs start|test');
  process.exit(2);
}
