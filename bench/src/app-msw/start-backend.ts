// Stands in for apps/web/src/backend/start-backend.ts in the MSW variant of the app that the
// start-up benchmark builds (build/msw-app.ts swaps it in): the same exported interface, with
// /api answered by MSW over arrays of the same 500 customers and their jobs, embedded at build time.
import { setupWorker } from 'msw/browser';
import data from 'virtual:otto-bench-msw-data';
import { arrayHandlers } from '../shared/array-handlers';

/** The app's BackendStatus, restated (the bench may not import apps/web). */
export interface BackendStatus {
  role: 'leader' | 'follower' | 'remote';
  storage: 'opfs' | 'memory' | 'remote';
  fallbackReason?: string;
  otherVersion?: string;
  outdated?: boolean;
  unreachable?: boolean;
}

/** The app's BackendHandle, restated. */
export interface BackendHandle {
  readonly status: BackendStatus;
  subscribe(listener: (status: BackendStatus) => void): () => void;
  /** No change feed across tabs: MSW's data lives in each page. */
  onChange(listener: (event: unknown) => void): () => void;
  deleteDatabase(): Promise<void>;
  exportDatabase(): Promise<Uint8Array>;
  restoreDatabase(bytes: Uint8Array): Promise<void>;
}

let started: Promise<BackendHandle> | undefined;

const unsupported = (what: string) => Promise.reject(new Error(`The MSW variant of the bench cannot ${what}: its data is an array in this page.`));

/**
 * Starts MSW once per page; resolves when its service worker answers /api.
 * @example
 * const backend = await ensureBackend();
 */
export function ensureBackend(): Promise<BackendHandle> {
  started ??= setupWorker(...arrayHandlers(data))
    .start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } })
    .then(() => ({
      // The data lives in this page's memory, as with any MSW mock; 'opfs' keeps the first screen
      // the same as Otto's (no "changes will not be kept" banner).
      status: { role: 'leader', storage: 'opfs' } as const,
      subscribe: () => () => undefined,
      onChange: () => () => undefined,
      deleteDatabase: () => unsupported('delete the database'),
      exportDatabase: () => unsupported('export a database'),
      restoreDatabase: () => unsupported('restore a database'),
    }));
  return started;
}
