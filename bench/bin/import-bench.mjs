#!/usr/bin/env node
// The CSV import figures of issue 13 (see src/node/import-bench.ts). Needs apps/web/dist for the
// Chromium part. Options: --rows=50000, --skip-browser
import { runEntry } from './run-entry.mjs';

await runEntry('../src/node/import-bench.ts', { source: true });
