/**
 * Starts this build's DB worker (the same one serves the backend and a recovery).
 * @example
 * const worker = createDbWorker();
 */
export function createDbWorker(): Worker {
  return new Worker(new URL('./db.worker.ts', import.meta.url), { type: 'module', name: 'otto-db' });
}
