// The MSW variant's stand-in for apps/web/src/backend/create-db-worker.ts: MSW has no database to
// recover, so the variant ships no DB worker at all (bench/build/msw-app.ts swaps this in).

/** Never called: the MSW variant starts no database. */
export function createDbWorker(): Worker {
  throw new Error('The MSW variant has no DB worker.');
}
