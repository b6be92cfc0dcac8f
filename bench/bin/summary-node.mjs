#!/usr/bin/env node
// GET /api/reports/summary timed in Node on SQLite WASM in memory (see src/node/summary-in-node.ts).
// Options: --customers=100000 --jobs=300000 --iterations=30 --out=…
/* global URL, console, process */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const entry = fileURLToPath(new URL('../src/node/summary-in-node.ts', import.meta.url));
// Workspace packages resolve to their TypeScript source, as in the tests.
const { module } = await runnerImport(entry, {
  configFile: false,
  logLevel: 'warn',
  environments: { inline: { resolve: { conditions: ['@otto/source'], noExternal: [/^@otto\//] } } },
});
try {
  await module.main(process.argv.slice(2));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
