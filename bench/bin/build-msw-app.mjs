#!/usr/bin/env node
// Builds the MSW variant of apps/web for the start-up benchmark (see build/msw-app.ts).
// Arguments: <appDir> <outDir> [customers] [fakerSeed] [now]
import { runEntry } from './run-entry.mjs';

// The module runner sets NODE_ENV=development; the build must bundle React's production build.
await runEntry('../build/msw-app.ts', { source: true, env: { NODE_ENV: 'production' } });
