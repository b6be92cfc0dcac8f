import { postCompiledSqlite } from '@otto/mock-backend/browser';
import sqliteWasmUrl from '@sqlite.org/sqlite-wasm/sqlite3.wasm?url';

/**
 * Starts this build's DB worker (the same one serves the backend and a recovery), with SQLite's
 * wasm compiled by this page while the worker's script loads (decision 0008).
 * @example
 * const worker = createDbWorker();
 */
export function createDbWorker(): Worker {
  const worker = new Worker(new URL('./db.worker.ts', import.meta.url), { type: 'module', name: 'otto-db' });
  postCompiledSqlite(worker, sqliteWasmUrl);
  return worker;
}
