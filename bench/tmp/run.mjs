import { runEntry } from '../bin/run-entry.mjs';
await runEntry('../tmp/trace.ts');
