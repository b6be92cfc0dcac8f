#!/usr/bin/env node
// A new device's first sync from a team server, and 1 000 writes made offline pushed and pulled, in
// Node on SQLite WASM in memory (see src/node/sync-in-node.ts).
// Options: --customers=100000 --offline-writes=1000 --cache=/tmp/sync-server.sqlite3 --out=…
import { runEntry } from './run-entry.mjs';

await runEntry('../src/node/sync-in-node.ts', { source: true });
