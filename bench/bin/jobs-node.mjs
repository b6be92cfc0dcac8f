#!/usr/bin/env node
// The job calls timed in Node on SQLite WASM in memory (see src/node/jobs-in-node.ts).
// Options: --sizes=100000,400000, --iterations=50
import { runEntry } from './run-entry.mjs';

await runEntry('../src/node/jobs-in-node.ts', { source: true });
