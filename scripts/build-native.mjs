#!/usr/bin/env node
// Builds better-sqlite3's native part in the background of `npm test` (scripts/otto.mjs starts it
// beside the first tests, not before them): its own install script (a prebuilt binary, else a
// build from source, about 100 s), then a copy kept per machine, then `<marker>.ready` (or
// `<marker>.failed` with the compiler's output), which the tests that open a SQLite file wait for.
//
// usage: node scripts/build-native.mjs <better-sqlite3 dir> <cache file> <marker>
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [dir, cached, marker] = process.argv.slice(2);
const built = join(dir, 'build/Release/better_sqlite3.node');
const started = Date.now();
// -O1 instead of the package's -O3 (node-gyp puts CFLAGS after the package's own flags, and the
// last -O wins): 54 s instead of about 100 s on an idle core of this machine (SQLite's amalgamation
// alone: 17 s instead of 44 s), and this build runs beside the first tests, which need the CPU.
// It serves the tests of the server on a SQLite file, which measure what it answers, not its speed.
const optimize = (flags) => `${flags ?? ''} -O1`.trim();
const env = { ...process.env, CFLAGS: optimize(process.env.CFLAGS), CXXFLAGS: optimize(process.env.CXXFLAGS) };
const result = spawnSync('npm', ['run', 'install', '--silent'], { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
const seconds = Math.round((Date.now() - started) / 1000);
if (result.status === 0 && existsSync(built)) {
  try {
    mkdirSync(dirname(cached), { recursive: true });
    copyFileSync(built, cached);
  } catch {
    // A cache that cannot be written only means the next clone builds it again.
  }
  writeFileSync(`${marker}.ready`, `${seconds}\n`);
} else {
  // The compiler's own warnings are not ours to act on: its output is shown only when it fails.
  const output = `${result.error ? `${result.error.message}\n` : ''}${result.stdout ?? ''}${result.stderr ?? ''}`;
  writeFileSync(`${marker}.failed`, `better-sqlite3's build failed (exit ${result.status}) after ${seconds} s:\n${output}`);
}
