// The DB worker of the whole-path figure: exactly what the app's db.worker.ts does
// (serveMockApiInWorker on OPFS), with the bench's seed size in case the database is empty.
// The page names the worker `customers=<n>`.
import { serveMockApiInWorker } from '@otto/mock-backend/worker';

const n = Number(/customers=(\d+)/.exec(self.name)?.[1] ?? 500);

serveMockApiInWorker({ seed: { count: n, jobs: true, fakerSeed: 42 } }).catch(() => {
  // Reported to the page ('failed').
});
