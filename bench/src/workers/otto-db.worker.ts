// The DB worker of the whole-path figure: exactly what the app's db.worker.ts does
// (serveMockApiInWorker on OPFS), with the bench's seed size in case the database is empty.
// The page names the worker `customers=<n>`. The one addition: wasm-memories counts SQLite's
// WebAssembly memory for the memory bench (first, before anything can start SQLite).
import './wasm-memories';
import { serveMockApiInWorker } from '@otto/mock-backend/worker';

const n = Number(/customers=(\d+)/.exec(self.name)?.[1] ?? 500);

serveMockApiInWorker({ seed: { count: n, jobs: true, fakerSeed: 42 } }).catch(() => {
  // Reported to the page ('failed').
});
