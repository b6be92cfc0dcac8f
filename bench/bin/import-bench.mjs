#!/usr/bin/env node
// The CSV import figures of issue 13 (see src/node/import-bench.ts). Needs apps/web/dist for the
// Chromium part. Options: --rows=50000, --skip-browser
/* global URL, console, process */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const entry = fileURLToPath(new URL('../src/node/import-bench.ts', import.meta.url));
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
