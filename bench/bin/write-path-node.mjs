#!/usr/bin/env node
// What one write costs in the API with and without the change log devices pull from (decision
// 0167), in Node on SQLite WASM in memory (see src/node/write-path-in-node.ts).
// Options: --customers=10000 --writes=2000 --out=…
import { runEntry } from './run-entry.mjs';

await runEntry('../src/node/write-path-in-node.ts', { source: true });
