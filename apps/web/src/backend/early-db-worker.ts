// The DB worker, started while the app's code is still loading (src/main.tsx) unless the app can
// draw its first screen from a kept answer (then the backend starts it once the app's code is in):
// it loads SQLite at
// once and opens the database only when this tab turns out to own it (`waitForOpen`). A tab that
// relays to another tab's database ends it unused.

import { createDbWorker } from './create-db-worker';

let early: Worker | undefined;
/** The backend has taken its worker (or dropped the early one): none is started early after that. */
let settled = false;

/**
 * Starts the DB worker ahead of the app (once), unless the backend has already taken one.
 * @example
 * if (location.pathname.startsWith('/biz/')) startDbWorkerEarly();
 */
export function startDbWorkerEarly(): void {
  if (settled) return;
  early ??= createDbWorker();
}

/**
 * The DB worker for the tab that owns the database: the one started early, else a new one.
 * @example
 * startBrowserBackend({ createWorker: takeDbWorker, … });
 */
export function takeDbWorker(): Worker {
  settled = true;
  const worker = early ?? createDbWorker();
  early = undefined;
  return worker;
}

/**
 * Ends the early DB worker when this tab does not own the database.
 * @example
 * if (backend.status.role === 'follower') dropEarlyDbWorker();
 */
export function dropEarlyDbWorker(): void {
  settled = true;
  early?.terminate();
  early = undefined;
}
