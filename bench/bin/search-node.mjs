#!/usr/bin/env node
// The job calls timed in Node on SQLite WASM in memory (see src/node/search-in-node.ts).
// Options: --sizes=100000, --iterations=50
/* global URL, console, process */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const entry = fileURLToPath(new URL('../src/node/search-in-node.ts', import.meta.url));
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
