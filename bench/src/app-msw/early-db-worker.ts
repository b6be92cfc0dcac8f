// The MSW variant's stand-in for apps/web/src/backend/early-db-worker.ts: MSW needs no DB worker,
// so the app's entry starts none (bench/build/msw-app.ts swaps this in).

/** Nothing to start ahead: MSW answers in the page. */
export function startDbWorkerEarly(): void {}

/** Never called: the MSW variant's backend starts no database. */
export function takeDbWorker(): Worker {
  throw new Error('The MSW variant has no DB worker.');
}

/** Nothing to end. */
export function dropEarlyDbWorker(): void {}
