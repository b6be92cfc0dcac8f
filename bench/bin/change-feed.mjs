#!/usr/bin/env node
// What publishing the change feed costs per write (Chromium worker and Node); prints the figures.
import { runEntry } from './run-entry.mjs';

await runEntry('../src/changes/change-feed-cost.ts');
