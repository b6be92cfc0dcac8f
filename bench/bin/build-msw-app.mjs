#!/usr/bin/env node
// Builds the MSW variant of apps/web for the start-up benchmark (see build/msw-app.ts).
// Arguments: <appDir> <outDir> [customers] [fakerSeed] [now]
/* global URL, console, process */
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const entry = fileURLToPath(new URL('../build/msw-app.ts', import.meta.url));
// Workspace packages resolve to their TypeScript source, as in the tests.
const { module } = await runnerImport(entry, {
  configFile: false,
  logLevel: 'warn',
  environments: { inline: { resolve: { conditions: ['@otto/source'], noExternal: [/^@otto\//] } } },
});
// The module runner sets NODE_ENV=development; the build must bundle React's production build.
process.env.NODE_ENV = 'production';
try {
  await module.main(process.argv.slice(2));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
