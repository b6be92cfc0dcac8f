#!/usr/bin/env node
// Runs the TypeScript benchmark runner on Node 20 through Vite's module runner (no build step).
// Options: --quick (few iterations), --skip-build, --sizes=500,10000, --only=path,startup,ships
import { runEntry } from './run-entry.mjs';

await runEntry('../src/node/main.ts');
