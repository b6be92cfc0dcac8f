#!/usr/bin/env node
// GET /api/reports/summary timed in Node on SQLite WASM in memory (see src/node/summary-in-node.ts).
// Options: --customers=100000 --jobs=300000 --iterations=30 --out=…
import { runEntry } from './run-entry.mjs';

await runEntry('../src/node/summary-in-node.ts', { source: true });
