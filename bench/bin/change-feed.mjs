#!/usr/bin/env node
// What publishing the change feed costs per write (Chromium worker and Node); prints the figures.
/* global URL, console, process */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const entry = fileURLToPath(new URL('../src/changes/change-feed-cost.ts', import.meta.url));
const { module } = await runnerImport(entry, { configFile: false, logLevel: 'warn' });
try {
  await module.main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
