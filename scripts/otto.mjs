#!/usr/bin/env node
// The one entry point a fresh machine needs (Node 20 and npm): installs what is missing, then
// starts the app (`npm start`) or runs every test (`npm test`).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findPostgresBin } from '../tooling/postgres-testing/index.js';

const root = new URL('..', import.meta.url).pathname;
// No tool banners in the output: turbo's telemetry notice (and its sending) and its update notice.
process.env.TURBO_TELEMETRY_DISABLED ??= '1';
process.env.TURBO_NO_UPDATE_NOTIFIER ??= '1';
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

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Installs Debian packages with apt (only as root, where apt exists); answers whether it could. */
function aptInstall(what, packages, purpose = 'the browser tests') {
  if (!isRoot || !quiet('apt-get', ['--version'])) return false;
  console.log(`otto: installing ${what} from Debian for ${purpose}…`);
  aptGet(['update']);
  aptGet(['install', '-y', '--no-install-recommends', ...packages]);
  return true;
}

/**
 * One quiet apt-get run: its output is shown only when it fails, and then without debconf's
 * "delaying package configuration, since apt-utils is not installed", which is no error.
 */
function aptGet(args) {
  const cmd = ['apt-get', '-qq', '-o=Dpkg::Use-Pty=0', ...args];
  console.log(`\n> ${cmd.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const result = spawnSync(cmd[0], cmd.slice(1), { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  const status = result.status ?? 1;
  const noise = /^debconf: (delaying package configuration|unable to initialize frontend|falling back to frontend|\()/;
  const errors = (result.stderr ?? '').split('\n').filter((line) => line.trim() !== '' && !noise.test(line));
  if (status !== 0 || result.error) {
    console.log([...(result.stdout ?? '').split('\n'), ...errors].filter(Boolean).join('\n'));
    console.error(`\notto: "${cmd.join(' ')}" failed (exit ${status}).`);
    process.exit(status || 1);
  }
  if (errors.length > 0) console.log(errors.join('\n'));
}

/** Debian's Chromium for the browser tests: installed with apt when missing and we are root. */
function ensureChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const shell = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
  const found = () => candidates.find((path) => existsSync(path));
  // Debian's headless shell (the same Chromium without the browser's own layer) runs the Chromium
  // suite at about half the CPU of a first visit (decision 0041): installed with Chromium, in one
  // apt run, when either is missing; a machine without it runs the suite in the full Chromium.
  const missing = [...(found() ? [] : ['chromium']), ...(existsSync(shell) ? [] : ['chromium-headless-shell'])];
  if (missing.length > 0) aptInstall(missing.join(', '), missing);
  const chromium = found();
  if (chromium) {
    if (!existsSync(shell)) console.log(`otto: no ${shell}; the Chromium tests run in ${chromium} (slower).`);
    return { chromium, ...(existsSync(shell) ? { shell } : {}) };
  }
  console.error(
    'otto: the browser tests need Chromium. Install it (Debian: `sudo apt-get install chromium chromium-headless-shell`) or set CHROMIUM_PATH to its executable.',
  );
  process.exit(1);
}

/**
 * Firefox ESR (driven over WebDriver BiDi) and WebKitGTK (WebKitWebDriver + MiniBrowser, on an
 * Xvfb display) for the shared flows (apps/web/e2e/shared-flows.*): Debian's, installed with apt
 * when missing and we are root, in one apt run.
 */
function ensureFirefoxAndWebKit() {
  const miniBrowser = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser'];
  const missing = () => [
    ...(existsSync(process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr') ? [] : ['firefox-esr']),
    ...(existsSync('/usr/bin/WebKitWebDriver') && (process.env.MINIBROWSER_PATH ? existsSync(process.env.MINIBROWSER_PATH) : miniBrowser.some((p) => existsSync(p))) ? [] : ['webkit2gtk-driver']),
    ...(existsSync('/usr/bin/Xvfb') ? [] : ['xvfb']),
  ];
  const needed = missing();
  if (needed.length === 0) return;
  aptInstall(needed.join(', '), needed);
  const still = missing();
  if (still.length > 0) {
    console.error(`otto: the browser tests need Debian's ${still.join(', ')} (sudo apt-get install ${still.join(' ')}).`);
    process.exit(1);
  }
}

/** Set to 1 to skip the PostgreSQL tests on a machine without PostgreSQL (they count as skipped). */
const skipPostgres = process.env.OTTO_SKIP_POSTGRES === '1';

/**
 * Debian's PostgreSQL server binaries (initdb, pg_ctl) for the PostgreSQL store's tests, which start
 * a throwaway server of their own (tooling/postgres-testing, @otto/postgres-testing): installed with
 * apt when missing and we are root. Without them the run stops here, naming the package, unless
 * OTTO_SKIP_POSTGRES=1 says to skip those tests (the closing line then counts them as skipped).
 */
function ensurePostgres() {
  if (skipPostgres) {
    console.log('otto: OTTO_SKIP_POSTGRES=1: the PostgreSQL tests are skipped (counted as skipped at the end).');
    return;
  }
  // Where the tests look (@otto/postgres-testing: plain JavaScript and Node's own modules only, so
  // it loads before the install).
  const found = () => findPostgresBin() !== null;
  if (found()) return;
  aptInstall('PostgreSQL', ['postgresql'], 'the PostgreSQL store tests');
  if (found()) return;
  console.error(
    "otto: the PostgreSQL store's tests need PostgreSQL's server (Debian package `postgresql`: `sudo apt-get install postgresql`; " +
      'elsewhere set OTTO_POSTGRES_BIN to the folder holding initdb and pg_ctl). ' +
      'To run everything else and skip those tests, run `OTTO_SKIP_POSTGRES=1 npm test` (they are counted as skipped).',
  );
  process.exit(1);
}

/**
 * better-sqlite3's native part, for the HTTP server's tests: installs never build it (so `npm start`
 * needs no compiler); its own install script (a prebuilt binary, else a build from source, about
 * 100 s) runs once per machine, beside the first tests (scripts/build-native.mjs): only the three
 * test files that open a SQLite file wait for it (@otto/vitest-config's `nativeModuleReady`). The
 * result is kept outside the checkout, by version, Node ABI and platform (as pnpm keeps packages in
 * its store), so a fresh clone on the same machine copies it.
 * @returns {{ marker: string, wait(): number } | undefined} undefined when there is nothing to build
 */
function startNativeBuild() {
  const dir = join(root, 'packages/mock-backend/node_modules/better-sqlite3');
  const built = join(dir, 'build/Release/better_sqlite3.node');
  if (!existsSync(dir) || existsSync(built)) return undefined;
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const cacheRoot = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const cached = join(cacheRoot, 'otto', `better-sqlite3-${version}-node-abi${process.versions.modules}-${process.platform}-${process.arch}.node`);
  if (existsSync(cached)) {
    mkdirSync(dirname(built), { recursive: true });
    copyFileSync(cached, built);
    console.log(`\n== native module (better-sqlite3 ${version}): built before on this machine, copied from ${cached}`);
    return undefined;
  }
  const marker = join(mkdtempSync(join(tmpdir(), 'otto-native-')), 'better-sqlite3');
  const title = `native module (better-sqlite3 ${version}, about a minute the first time)`;
  console.log(`\n== ${title}: building beside the first tests`);
  spawn(process.execPath, [join(root, 'scripts/build-native.mjs'), dir, cached, marker], { stdio: 'ignore' });
  return {
    marker,
    wait() {
      const pause = new Int32Array(new SharedArrayBuffer(4));
      // A build that ended without a word (killed) must not hang the run: 15 minutes is far past it.
      const giveUpAt = Date.now() + 15 * 60_000;
      while (!existsSync(`${marker}.ready`) && !existsSync(`${marker}.failed`) && Date.now() < giveUpAt) Atomics.wait(pause, 0, 0, 250);
      const ready = existsSync(`${marker}.ready`);
      if (ready) console.log(`\n== ${title}: ok in ${readFileSync(`${marker}.ready`, 'utf8').trim()} s`);
      else if (existsSync(`${marker}.failed`)) console.log(readFileSync(`${marker}.failed`, 'utf8'));
      else console.log(`\n== ${title}: FAILED (no result after 15 minutes)`);
      rmSync(dirname(marker), { recursive: true, force: true });
      return ready ? 0 : 1;
    },
  };
}

/**
 * Starts the npm install of the consumer test's third-party packages (React, Vite, Vitest,
 * Playwright, Storybook) in the background: it waits mostly on the registry, so it runs beside the
 * first checks, and the consumer test then adds only the packed Otto packages
 * (tooling/consumer-tests/prepare-project.js). Answers the project's folder.
 */
function startConsumerInstall() {
  const dir = mkdtempSync(join(tmpdir(), 'otto-consumer-'));
  // Its own process group, so that npm and what npm started can be stopped together.
  const child = spawn(process.execPath, [join(root, 'tooling/consumer-tests/prepare-project.js'), dir], {
    stdio: 'ignore',
    cwd: join(root, 'tooling/consumer-tests'),
    detached: true,
  });
  child.unref();
  return {
    dir,
    /** Stops the install if it still runs (the consumer test did not wait for it), then removes the folder. */
    remove() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Ended already.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The browser a browser test ran in: the shared flows say it in their file name, the rest is Chromium. */
function browserOf(file) {
  const match = /shared-flows\.(chromium|firefox|webkit)\.e2e\.test\.ts$/.exec(file);
  return match ? match[1] : 'chromium';
}

/** Sums the JSON reports vitest wrote, for the closing lines (browser tests also per browser). */
function summarize() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const browsers = {};
  const dirs = ['apps', 'packages', 'tooling'].flatMap((group) =>
    readdirSync(join(root, group)).map((name) => join(root, group, name, 'test-results')),
  );
  for (const dir of dirs.filter((d) => existsSync(d))) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      passed += report.numPassedTests ?? 0;
      failed += report.numFailedTests ?? 0;
      skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
      if (!file.startsWith('e2e')) continue;
      for (const result of report.testResults ?? []) {
        const counts = (browsers[browserOf(result.name ?? '')] ??= { passed: 0, failed: 0, skipped: 0, shared: 0 });
        for (const test of result.assertionResults ?? []) {
          if (test.status === 'passed') counts.passed += 1;
          else if (test.status === 'failed') counts.failed += 1;
          else if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') counts.skipped += 1;
          if (/shared-flows\./.test(result.name ?? '')) counts.shared += 1;
        }
      }
    }
  }
  return { passed, failed, skipped, browsers };
}

/**
 * Each browser test file's whole duration (import, hooks and tests; test-results/durations/, written
 * by @otto/vitest-config's reporter), slowest first, so that a slow run says where its time went.
 */
function printFileDurations(reports) {
  const files = [];
  for (const dir of ['apps', 'packages', 'tooling'].flatMap((g) => readdirSync(join(root, g)).map((n) => join(root, g, n, 'test-results', 'durations')))) {
    for (const name of reports.filter((r) => existsSync(join(dir, `${r}.json`)))) {
      for (const f of JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'))) {
        if (typeof f.ms === 'number') files.push({ file: String(f.file).replace(root, ''), seconds: f.ms / 1000, failed: f.state === 'failed' });
      }
    }
  }
  if (files.length === 0) return;
  console.log('browser test files, slowest first:');
  for (const f of files.sort((a, b) => b.seconds - a.seconds)) {
    console.log(`${f.seconds.toFixed(0).padStart(6)} s  ${f.file}${f.failed ? '  (failed)' : ''}`);
  }
}

/**
 * The turbo run's tasks that took 5 s or more (turbo's run summary, .turbo/runs/), in the order they
 * started, with when they started and ended: so that a slow run says which tasks held the two lanes
 * and when the browser tests could start.
 */
function printTaskTimeline() {
  const dir = join(root, '.turbo/runs');
  if (!existsSync(dir)) return;
  const newest = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) return;
  const { tasks = [], execution = {} } = JSON.parse(readFileSync(newest, 'utf8'));
  const began = execution.startTime ?? Math.min(...tasks.map((t) => t.execution?.startTime ?? Infinity));
  const timed = tasks
    .filter((t) => t.execution && t.execution.endTime - t.execution.startTime >= 5000)
    .sort((a, b) => a.execution.startTime - b.execution.startTime);
  if (timed.length === 0) return;
  console.log('tasks of 5 s or more (start, end, seconds from the start of the run):');
  for (const t of timed) {
    const [from, to] = [t.execution.startTime - began, t.execution.endTime - began].map((ms) => (ms / 1000).toFixed(0).padStart(4));
    console.log(`${from} → ${to}  ${((t.execution.endTime - t.execution.startTime) / 1000).toFixed(0).padStart(4)} s  ${t.taskId}`);
  }
}

const browserTitles = { chromium: 'Chromium', firefox: 'Firefox ESR', webkit: 'WebKitGTK' };

const pnpm = findPnpm();
const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const quietEnv = color ? {} : { NO_COLOR: '1', FORCE_COLOR: '0' };
const pnArgs = (args) => [pnpm[0], [...pnpm.slice(1), ...args]];

/** Runs one phase with a heading and its duration; its output is kept short (errors only). */
function phase(title, cmd, args, options = {}) {
  console.log(`\n== ${title}`);
  const started = Date.now();
  const status = run(cmd, args, { ...options, env: { ...process.env, ...quietEnv, ...options.env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`== ${title}: ${status === 0 ? 'ok' : `FAILED (exit ${status})`} in ${seconds} s`);
  return status;
}

if (command === 'start') {
  // The app needs no compiler: better-sqlite3 (the HTTP server's file database) is not built here.
  must(...pnArgs(['install', ...(process.env.CI ? ['--frozen-lockfile'] : []), '--reporter=append-only']));
  must(...pnArgs(['turbo', 'run', 'build', '--filter=@otto/web...', '--output-logs=errors-only']));
  console.log('\notto: open http://localhost:4173 (Ctrl+C stops the app)');
  must(...pnArgs(['--filter', '@otto/web', 'preview']));
} else if (command === 'test') {
  const failedPhases = [];
  const check = (title, status) => status === 0 || failedPhases.push(title);
  const install = phase('install', ...pnArgs(['install', ...(process.env.CI ? ['--frozen-lockfile'] : []), '--reporter=append-only']));
  if (install !== 0) process.exit(install);
  const { chromium, shell: chromiumShell } = ensureChromium();
  ensureFirefoxAndWebKit();
  ensurePostgres();
  const native = startNativeBuild();
  for (const dir of ['apps', 'packages', 'tooling'].flatMap((g) => readdirSync(join(root, g)).map((n) => join(root, g, n, 'test-results')))) {
    rmSync(dir, { recursive: true, force: true });
  }
  const consumerProject = startConsumerInstall();
  // The browser files start heaviest first by the last run's own figures on this machine (kept
  // outside the checkout, as the native build is): apps/web/e2e/heaviest-first.ts.
  const keptDurations = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'otto', 'e2e-durations.json');
  const browserEnv = { CHROMIUM_PATH: chromium, ...(chromiumShell ? { CHROMIUM_HEADLESS_SHELL_PATH: chromiumShell } : {}) };
  const env = {
    ...browserEnv,
    OTTO_CONSUMER_PROJECT: consumerProject.dir,
    OTTO_E2E_DURATIONS: keptDurations,
    ...(native ? { OTTO_NATIVE_MODULE: native.marker } : {}),
  };
  const turbo = (tasks, extra = []) => pnArgs(['turbo', 'run', ...tasks, '--summarize', '--output-logs=errors-only', ...(color ? [] : ['--no-color']), ...extra]);
  // One run of turbo, three tasks at a time: lint, types, the unit and integration tests, the build,
  // the tests on SQLite files and the browser tests (against the production build, two files at a
  // time: apps/web/vitest.e2e.config.ts). One run, so that the browser tests start as soon as the
  // app is built and fill the lane that the last long tasks of the first checks (the consumer test)
  // used to leave idle. Three tasks on two cores, because most first checks (tsc, eslint, the mock
  // backend's tests) keep less than one core busy and turbo does not start the app's build first:
  // with two, the cores idled about a tenth of the first three minutes and the browser tests
  // started at 173 s; with three, at 146 s and the run was 43 s shorter (decision 0041). A failed
  // task stops only what depends on it (a failed build, the browser tests), everything else still runs.
  // On a machine that builds better-sqlite3 now (about a minute on one core, beside the first
  // checks), what opens a SQLite file through it waits: the tests on SQLite files and the browser
  // tests (a server on a file) run after it, each a phase of its own, rather than hold a lane.
  const first = native ? 'lint, types, unit and integration tests' : 'lint, types, unit, integration and browser tests';
  const tasks = ['lint', 'typecheck', 'test', 'build', ...(native ? [] : ['test:native', 'test:e2e'])];
  check(first, phase(first, ...turbo(tasks, ['--concurrency=3', '--continue=dependencies-successful']), { env }));
  // The consumer test removes its project when it ran; not when turbo had its result already.
  consumerProject.remove();
  if (native) {
    check('native module (better-sqlite3)', native.wait());
    const onFiles = 'tests on SQLite files (better-sqlite3)';
    check(onFiles, phase(onFiles, ...turbo(['test:native'], ['--concurrency=2']), { env: browserEnv }));
    check('browser tests', phase('browser tests', ...turbo(['test:e2e'], ['--concurrency=2']), { env }));
  }
  printTaskTimeline();
  printFileDurations(['e2e', 'browser']);
  const durations = join(root, 'apps/web/test-results/durations/e2e.json');
  if (existsSync(durations)) {
    mkdirSync(dirname(keptDurations), { recursive: true });
    copyFileSync(durations, keptDurations);
  }
  const { passed, failed, skipped, browsers } = summarize();
  // A phase that failed without a failing test (a lint error, a type error) still counts once.
  const phaseFailures = Math.max(0, failedPhases.length - (failed > 0 ? 1 : 0));
  if (failedPhases.length === 0) console.log('\notto: every check passed.');
  else console.log(`\notto: these phases failed (their errors are printed above): ${failedPhases.join('; ')}.`);
  const perBrowser = Object.entries(browsers).map(
    ([name, c]) =>
      `${browserTitles[name] ?? name} ${c.passed} passed${c.failed ? `, ${c.failed} failed` : ''}${c.skipped ? `, ${c.skipped} skipped` : ''}${name === 'chromium' ? ` (${c.shared} of them the shared flows)` : ''}`,
  );
  if (perBrowser.length > 0) console.log(`browser tests: ${perBrowser.join('; ')}`);
  // Skipped tests are never silent: said here with the reason, and counted in the closing line.
  // A run that left out the PostgreSQL tests checked less than the suite: it never passes.
  if (skipPostgres) console.log('skipped on purpose: the PostgreSQL tests (OTTO_SKIP_POSTGRES=1): this run is not a pass');
  console.log(`${passed} passed, ${failed + phaseFailures} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  process.exit(failedPhases.length === 0 && failed === 0 && !skipPostgres ? 0 : 1);
} else {
  console.error('usage: node scripts/otto.mjs start|test');
  process.exit(2);
}
