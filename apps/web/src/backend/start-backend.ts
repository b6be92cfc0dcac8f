import type { ChangeEvent } from '@otto/api-contract';
import { databaseProblemOf, requestBudgetMs, startBrowserBackend, type BrowserBackend } from '@otto/mock-backend/browser';
import { configureApiClient } from '../lib/api-client';
import { dropEarlyDbWorker, takeDbWorker } from './early-db-worker';
import { firstScreenShown } from './first-screen';
import { recoverySession } from './recovery-session';
import { remoteApiPrefix, remoteBackend } from './remote-backend';

/** What the app shows about the in-browser backend. */
export interface BackendStatus {
  /**
   * `leader`: this tab owns the database; `follower`: another tab does and this one relays to it;
   * `remote`: a server answers the API (`VITE_OTTO_API_BASE_URL`).
   */
  role: 'leader' | 'follower' | 'remote';
  /** `memory` means changes are lost when the owning tab closes; `remote`: the server keeps them. */
  storage: 'opfs' | 'indexeddb' | 'memory' | 'remote';
  /** Why persistence failed, when storage is `memory`. */
  fallbackReason?: string;
  /** Another tab runs this other version of Otto on the same database: every tab should be reloaded. */
  otherVersion?: string;
  /** A newer version of Otto took the database over in another tab: this tab must reload to write. */
  outdated?: boolean;
  /** Remote mode: the server did not answer the last call; Otto retries by itself. */
  unreachable?: boolean;
}

/** The running backend as the app uses it. */
export interface BackendHandle {
  readonly status: BackendStatus;
  subscribe(listener: (status: BackendStatus) => void): () => void;
  /** Calls `listener` after every committed write in any tab (or, remote, any client of the server). */
  onChange(listener: (event: ChangeEvent) => void): () => void;
  /** Deletes the database and starts a fresh, seeded one. */
  deleteDatabase(): Promise<void>;
  /** The bytes of the database as a SQLite file. */
  exportDatabase(): Promise<Uint8Array>;
  /** Replaces the database with a backup (a file, read a slice at a time) after checking it; rejects with the reason when refused. */
  restoreDatabase(backup: Blob): Promise<void>;
}

let started: Promise<BackendHandle> | undefined;

/**
 * Starts the in-browser backend once per page; resolves when /api requests are answered (service
 * worker in control, database open, ready handshake done). Installs `window.ottoDeleteDatabase()` and
 * `window.ottoBackendStatus()`.
 * With `VITE_OTTO_API_BASE_URL` set, points the API client at that server instead and resolves to a
 * `remote` status without registering the service worker.
 * A failed start is not cached, so calling it again retries.
 * @example
 * const backend = await ensureBackend();
 * const res = await fetch('/api/customers');
 */
export function ensureBackend(): Promise<BackendHandle> {
  const remoteSetting = import.meta.env.VITE_OTTO_API_BASE_URL;
  if (remoteSetting?.trim()) {
    started ??= Promise.resolve().then(() => {
      const prefix = remoteApiPrefix(remoteSetting) as string;
      const token = import.meta.env.VITE_OTTO_API_TOKEN?.trim();
      const backend = remoteBackend(`${prefix}/api`, token ? { token } : {});
      configureApiClient({ baseUrl: prefix, fetch: backend.fetch, tokenGiven: Boolean(token) });
      installDebugHooks(backend);
      return backend;
    });
    return started;
  }
  started ??= startBrowserBackend({
    serviceWorkerUrl: '/otto-sw.js',
    scope: '/',
    // Started early by src/main.tsx when the page began; it opens the database only when told.
    createWorker: takeDbWorker,
    appVersion: __OTTO_BUILD_ID__,
    // A first visit does not wait for the service worker to precache the whole app: until it
    // controls the page, the API client asks the database through the tab (decision 0008).
    waitForControl: false,
    // …and registers it once the first screen has rendered its data (start-app.tsx).
    registerAfter: () => firstScreenShown,
    // A business's own data: a link with ?otto-scenario= must never make it look broken.
    scenarioFromUrl: false,
  }).then(
    (backend) => {
      configureApiClient({
        // The host answers every call within its own budget, in words (503/504): the client's
        // limit stays past it, a backstop only (decision 0012).
        timeoutMs: requestBudgetMs + 2_000,
        fetch: (input, init) =>
          navigator.serviceWorker.controller ? globalThis.fetch(input, init) : backend.fetch(new Request(new URL(input, window.location.href), init)),
      });
      installDebugHooks(backend);
      // Another tab owns the database: the worker started early is not needed.
      if (backend.status.role === 'follower') dropEarlyDbWorker();
      return backend;
    },
    (error: unknown) => {
      dropEarlyDbWorker();
      started = undefined;
      // The database itself cannot be opened: the debug delete works on the file (spec section 4).
      if (databaseProblemOf(error)) {
        window.ottoDeleteDatabase = async () => {
          const recovery = await recoverySession();
          await recovery.deleteDatabase();
        };
      }
      throw error;
    },
  );
  return started;
}

function installDebugHooks(backend: BrowserBackend | BackendHandle): void {
  // Spec section 4: a debug function to delete the database, on the window object.
  window.ottoDeleteDatabase = () => backend.deleteDatabase();
  // Read-only companion for diagnostics: which tab owns the database and where it lives.
  window.ottoBackendStatus = () => backend.status;
  window.ottoAppVersion = __OTTO_BUILD_ID__;
}
