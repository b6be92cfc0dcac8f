#!/usr/bin/env node
// The team issue's load run: autocannon against otto-mock-server on a SQLite file and on PostgreSQL
// (two processes, one SIGKILLed half way), see src/node/team-load.ts. Build @otto/mock-backend first.
// Options: --seconds=60, --connections=100, --pool-size=20, --skip-kill
import { runEntry } from './run-entry.mjs';

await runEntry('../src/node/team-load.ts', { source: true });
