#!/usr/bin/env node
// Runs the TypeScript benchmark runner on Node 20 through Vite's module runner (no build step).
// Options: --quick (few iterations), --skip-build, --sizes=500,10000, --only=path,startup,ships
/* global URL, console, process */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const entry = fileURLToPath(new URL('../src/node/main.ts', import.meta.url));
const { module } = await runnerImport(entry, { configFile: false, logLevel: 'warn' });
try {
  await module.main(process.argv.slice(2));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
