// `pnpm bench`: builds the app and the bench pages, drives Debian's Chromium with playwright-core,
// and writes the full report to bench/results/runs/<date>-<time>.json and .md (ignored by git; also
// printed), appends a line of headline figures to bench/results/history.csv, and, for a full run,
// replaces bench/results/latest.md, latest.json and latest-*.svg (kept in git).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@otto/browser-testing';
import type { MswVariantManifest } from '../../build/msw-app';
import { serveApp } from './app-server';
import { freshProfile, launchProfile, removeProfile } from './chromium';
import { currentLoad, describeMachine } from './machine';
import { benchMemory } from './memory';
import { benchParts, parseOptions } from './options';
import { toCharts } from './charts';
import { appendHistory, historyRow } from './history';
import { checkTargets, toMarkdown, type BenchResults } from './report';
import { benchRequestPath } from './request-path';
import { benchShipments } from './ships';
import { benchStartups } from './startup';

const benchDir = fileURLToPath(new URL('../../', import.meta.url));
const appDir = fileURLToPath(new URL('../../../apps/web/', import.meta.url));
const repoDir = fileURLToPath(new URL('../../../', import.meta.url));
const resultsDir = `${benchDir}results/`;
/** Every report of every run: ignored by git (bench/.gitignore). */
const runsDir = `${resultsDir}runs/`;
const mswAppDir = `${benchDir}dist-msw-app`;

function log(line: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
}

/**
 * Builds with `vite build` in `cwd`, or, for the app, with turbo from the repository root: the
 * app's build reads the published build of the backend (its first-start data is made in Node at
 * build time), so the packages it depends on must be built first.
 */
function viteBuild(cwd: string, label: string): void {
  mkdirSync(runsDir, { recursive: true });
  const logFile = `${runsDir}.build-${label}.log`;
  const viaTurbo = cwd === appDir;
  log(`building ${label} (${viaTurbo ? 'turbo run build --filter=@otto/web...' : 'vite build'}; log in ${logFile.replace(benchDir, 'bench/')})…`);
  const out = openSync(logFile, 'w');
  // Vite's module runner (which runs this file) sets NODE_ENV=development in this process; a build
  // inheriting it would bundle React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  const command = viaTurbo ? ['turbo', 'run', 'build', '--filter=@otto/web...'] : ['exec', 'vite', 'build'];
  const result = spawnSync('pnpm', command, { cwd: viaTurbo ? repoDir : cwd, env, stdio: ['ignore', out, out] });
  if (result.status !== 0) throw new Error(`Building ${label} failed (exit ${result.status}); see ${logFile}.`);
}

/** Builds the MSW variant of the app (bench/build/msw-app.ts) in a child process, as a production build. */
function buildMswVariant(now: number): void {
  mkdirSync(runsDir, { recursive: true });
  const logFile = `${runsDir}.build-msw-app.log`;
  log(`building the MSW variant of the app (log in ${logFile.replace(benchDir, 'bench/')})…`);
  const out = openSync(logFile, 'w');
  const env = { ...process.env, NODE_ENV: 'production' };
  const args = [`${benchDir}bin/build-msw-app.mjs`, appDir, mswAppDir, '500', '42', String(now)];
  const result = spawnSync(process.execPath, args, { cwd: benchDir, env, stdio: ['ignore', out, out] });
  if (result.status !== 0) throw new Error(`Building the MSW variant failed (exit ${result.status}); see ${logFile}.`);
}

function readVariantManifest(): MswVariantManifest | undefined {
  const file = `${mswAppDir}/bench-variant.json`;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as MswVariantManifest) : undefined;
}

export async function main(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  const started = Date.now();
  if (!options.skipBuild) {
    if (options.parts.has('startup') || options.parts.has('ships')) viteBuild(appDir, 'app');
    if (options.parts.has('path') || options.parts.has('memory')) viteBuild(benchDir, 'bench');
    if (options.parts.has('startup')) buildMswVariant(started);
  }

  const probe = await launchChromium();
  const machine = describeMachine(probe.version());
  await probe.close();
  log(`${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, Chromium ${machine.chromium}`);
  if (machine.load.start > machine.cores * 0.75) {
    log(`warning: the load average is ${machine.load.start} on ${machine.cores} cores: other work competes for the CPU, so figures will be noisy.`);
  }

  const partial: Omit<BenchResults, 'targets'> = { machine, quick: options.quick, durationSeconds: 0 };

  if (options.parts.has('path')) {
    const profile = freshProfile();
    const context = await launchProfile(profile);
    try {
      partial.requestPath = await benchRequestPath(context, `${benchDir}dist`, options.sizes, options.quick, log, options.pragmas);
    } finally {
      await context.close();
      removeProfile(profile);
    }
  }

  if (options.parts.has('ships')) {
    const app = await serveApp(appDir);
    try {
      log('what ships: recording the landing page and /biz/customers…');
      partial.ships = await benchShipments(app, `${appDir}dist`);
    } finally {
      await app.close();
    }
  }

  if (options.parts.has('startup')) {
    const manifest = readVariantManifest();
    if (!manifest) throw new Error(`No MSW variant in ${mswAppDir}: run without --skip-build once.`);
    if (manifest.shipsOttoBackend) log('warning: the MSW variant ships Otto backend files (SQLite or the DB worker): its start-up pays for them too.');
    const app = await serveApp(appDir);
    const mswApp = await serveApp(appDir, mswAppDir);
    try {
      const runs = options.quick ? { first: 2, repeat: 3, restart: 1 } : { first: 7, repeat: 15, restart: 5 };
      log(
        `start-up of Otto and of the same app on MSW (over ${manifest.customers} customers and ${manifest.jobs} jobs from ${manifest.source}), in turns: ` +
          `${runs.first} first visits each, in fresh profiles…`,
      );
      const [otto, msw] = await benchStartups([app.origin, mswApp.origin], runs, log);
      if (otto) partial.startup = otto;
      if (msw) partial.startupMsw = { ...msw, shipsOttoBackend: manifest.shipsOttoBackend };
    } finally {
      await app.close();
      await mswApp.close();
    }
  }

  // Last: it times nothing, so the timed parts run before its seeding and MSW's biggest pages.
  if (options.parts.has('memory')) {
    partial.memory = await benchMemory(`${benchDir}dist`, options.sizes, log);
  }

  partial.durationSeconds = (Date.now() - started) / 1000;
  machine.load.end = currentLoad();
  const results: BenchResults = { ...partial, targets: checkTargets(partial) };
  // Only a full run is the record: it replaces the latest report kept in git. Every run, full or
  // not, keeps its report in runs/ and adds its line to the history.
  const full = !options.quick && options.parts.size === benchParts.length && !options.pragmas && options.sizes.join() === '500,10000,100000';
  const kind = options.quick ? 'quick' : full ? 'full' : 'partial';
  const name = `${machine.date.slice(0, 16).replace('T', '-').replace(':', '')}${full ? '' : `-${kind}`}`;
  mkdirSync(runsDir, { recursive: true });
  const charts = toCharts(results);
  const write = (dir: string, base: string) => {
    for (const chart of charts) writeFileSync(`${dir}${base}-${chart.name}.svg`, `${chart.svg}\n`);
    const markdown = toMarkdown(results, charts.map((c) => ({ title: c.title, file: `${base}-${c.name}.svg` })));
    writeFileSync(`${dir}${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(`${dir}${base}.md`, `${markdown}\n`);
    return markdown;
  };
  const markdown = write(runsDir, name);
  if (full) {
    for (const old of readdirSync(resultsDir).filter((f) => f.startsWith('latest'))) rmSync(`${resultsDir}${old}`);
    write(resultsDir, 'latest');
  }
  // A run that measured nothing (--only with no known part) leaves the history alone.
  const measured = options.parts.size > 0;
  if (measured) appendHistory(`${resultsDir}history.csv`, historyRow(results, kind, `runs/${name}.md`));
  console.log(`\n${markdown}`);
  log(`wrote bench/results/runs/${name}.json, ${name}.md and ${charts.length} SVG charts beside them${measured ? '; a line in bench/results/history.csv' : ''}`);
  if (full) log('a full run: bench/results/latest.md, latest.json and its charts replaced (commit them with history.csv)');
}
