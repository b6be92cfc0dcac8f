import { postCompiledSqlite, postSeedFile } from '@otto/mock-backend/browser';
import sqliteWasmUrl from '@sqlite.org/sqlite-wasm/sqlite3.wasm?url';
import { seedFileUrl } from './seed-file';

/**
 * Starts this build's DB worker (the same one serves the backend and a recovery), with SQLite's
 * wasm compiled by this page while the worker's script loads, and on a page no service worker
 * controls yet (a first visit) the first-start file fetched by the page too (decision 0008).
 * @example
 * const worker = createDbWorker();
 */
export function createDbWorker(): Worker {
  const worker = new Worker(new URL('./db.worker.ts', import.meta.url), { type: 'module', name: 'otto-db' });
  postCompiledSqlite(worker, sqliteWasmUrl);
  // A first start's dates move to the moment this page was opened: public/kept-screen.js may show
  // the first screen with them before the database exists (decision 0009).
  postSeedFile(worker, navigator.serviceWorker?.controller ? undefined : seedFileUrl, { moment: Math.floor(performance.timeOrigin) });
  return worker;
}
