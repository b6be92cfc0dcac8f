import type { SyncSettings } from './sync-runner';
import type { ChangeEvent } from '@otto/api-contract';
import type { MockApiOptions, MockChangeEvent } from '../types';
import type { MockApiExtension } from '../runtime/extensions';
import type { MockOverride } from '../runtime/scenarios';
import type { Logger } from '../logger';
import type { WorkerBackendInfo } from './protocol';

/**
 * What a tab knows about the in-browser backend.
 * @example
 * backend.subscribe((status: BackendStatus) => {
 *   if (status.storage === 'memory') showBanner('Changes will not be kept.');
 * });
 */
export interface BackendStatus {
  /** `leader`: this tab owns the database (its DB worker runs it); `follower`: it relays to the tab that does. */
  role: 'leader' | 'follower';
  /** Where the data lives: `opfs` survives reloads, `indexeddb` too (a browser without OPFS: a copy of the database is saved there after every write), `memory` is lost when the owning tab closes. */
  storage: 'opfs' | 'indexeddb' | 'memory';
  /** Why the database is in memory although persistence was asked for. */
  fallbackReason?: string;
  /**
   * Set when another tab of this origin runs a different version of the app (its `appVersion`),
   * so two versions share one database: every tab should be reloaded.
   */
  otherVersion?: string;
  /**
   * Set when another tab runs a newer version (a later `appVersion`): the database belongs to it
   * now, and this tab's writes are refused until it reloads.
   */
  outdated?: boolean;
}

/**
 * Options of `startBrowserBackend`.
 * @example
 * const options: BrowserBackendOptions = {
 *   serviceWorkerUrl: '/otto-sw.js',
 *   createWorker: () => new Worker(new URL('./db.worker.js', import.meta.url), { type: 'module' }),
 * };
 */
export interface BrowserBackendOptions {
  /** URL of the service worker script (`otto-sw.js`), served from the app root. */
  serviceWorkerUrl: string | URL;
  /**
   * Whether `?otto-scenario=<name>` in the page's URL puts that scenario in force before the app's
   * first call (`none` ends it). Off for an app whose users should never meet it. @default true
   */
  scenarioFromUrl?: boolean;
  /**
   * Starts the dedicated worker that runs `serveMockApiInWorker`. Called only in the tab that owns
   * the database.
   * @example () => new Worker(new URL('./db.worker.ts', import.meta.url), { type: 'module' })
   */
  createWorker: () => Worker;
  /**
   * The version of the app in this tab (a build id). Tabs tell each other theirs, and a tab that
   * meets another version reports it in `status.otherVersion`.
   */
  appVersion?: string;
  /**
   * Scope of the service worker registration.
   * @default '/'
   */
  scope?: string;
  /**
   * Name of the Web Lock that elects the tab owning the database.
   * @default 'otto-db-owner'
   */
  lockName?: string;
  /**
   * Name of the BroadcastChannel between the tabs.
   * @default 'otto-backend'
   */
  channelName?: string;
  /**
   * Whether the owner tab hands the service worker a port straight to its DB worker, so that
   * requests skip every tab's main thread. Off, every request goes through the tab that made it.
   * @default true
   */
  directPort?: boolean;
  /**
   * Name of the BroadcastChannel the DB worker posts change events on (the same as the worker's
   * `changeChannelName`).
   * @default 'otto-changes'
   */
  changeChannelName?: string;
  /**
   * How long a request made with `backend.fetch` waits for a tab to own the database (one starting,
   * or taking over from one that closed) before it is answered 503 in words. Once the owner has
   * it, it is answered 504 only when the database stays silent for 10 s (see host/budgets.ts).
   * Requests through the service worker carry its deadline instead.
   * @default 10000
   */
  requestTimeoutMs?: number;
  /**
   * Whether start-up waits until the service worker controls the page. `false` resolves as soon
   * as the database answers through `backend.fetch`, while the service worker installs (on a first
   * visit, precaching a whole app shell can take longer than the database); plain
   * `fetch('/api/…')` works once `backend.controlled` resolves. On a page no service worker
   * controls yet, `false` also registers it only once the database answers, so that its install
   * does not slow the database's start.
   * @default true
   */
  waitForControl?: boolean;
  /**
   * With `waitForControl: false`, on a page no service worker controls yet: register it only once
   * the database has answered and this settles too (at most 5 seconds later), for example once
   * the first screen has rendered its data, so that the install (a precache of the whole app, say)
   * does not compete with that render either. A page closed before then registers nothing; the
   * next visit does.
   * @example
   * startBrowserBackend({ …, waitForControl: false, registerAfter: () => firstScreenShown });
   */
  registerAfter?: () => Promise<unknown>;
  /**
   * How long start-up (service worker control, database open, migration, seeding) may take.
   * @default 30000
   */
  startTimeoutMs?: number;
  /**
   * How long to wait for the service worker to take control of a page that it does not control
   * (Shift+Reload) before reloading once.
   * @default 4000
   */
  claimTimeoutMs?: number;
  /**
   * Where messages go.
   * @default createLogger() (tag 'otto', debug off)
   */
  logger?: Logger;
}

/**
 * The in-browser backend as seen from one tab.
 * @example
 * const backend: BrowserBackend = await startBrowserBackend(options);
 * const bytes = await backend.exportDatabase(); // a SQLite file, for a backup
 */
export interface BrowserBackend {
  /** The current status; replaced (not mutated) when it changes. */
  readonly status: BackendStatus;
  /** Resolves once the service worker controls this page, so that plain `fetch('/api/…')` is answered. */
  readonly controlled: Promise<void>;
  /** Calls `listener` with every new status; returns the unsubscribe function. */
  subscribe(listener: (status: BackendStatus) => void): () => void;
  /** Answers a request the way the service worker would, without going through it. */
  fetch(request: Request): Promise<Response>;
  /** Deletes the database and starts a fresh one (migrated and seeded), in whichever tab owns it. */
  deleteDatabase(): Promise<void>;
  /** The bytes of the database as a SQLite file. */
  exportDatabase(): Promise<Uint8Array>;
  /**
   * Replaces the database with a backup (a SQLite file Otto saved), in whichever tab owns it. The
   * file is checked first (integrity, Otto schema, version; older versions are migrated); a file
   * that fails a check is refused with the reason and nothing changes. A `File` (a Blob) is read a
   * slice at a time where the worker has OPFS, so a backup of any size (up to `maxBackupBytes`) is
   * never held whole in memory.
   */
  restoreDatabase(backup: Uint8Array | Blob): Promise<void>;
  /**
   * Calls `listener` after every committed write in any tab of this origin (this one included):
   * `{ entity: 'customer' | 'job', kind: 'created' | 'updated', ids }`, and `{ entity: 'database',
   * kind: 'reset', ids: [] }` after a restore or a deleted database. Events come straight from the
   * DB worker on a BroadcastChannel, in commit order. With `extensions`, your routes' events come
   * too: type them with `backend.onChange<MockChangeEvent>(…)`. Returns the unsubscribe function.
   * @example
   * const stop = backend.onChange((event) => {
   *   if (event.entity === 'customer') void queryClient.invalidateQueries({ queryKey: ['customers'] });
   * });
   */
  onChange<E extends MockChangeEvent = ChangeEvent>(listener: (event: E) => void): () => void;
  /** Stops serving from this tab: releases the database lock, ends the DB worker, closes channels. */
  close(): void;
}

/**
 * The part of a dedicated worker's global scope the worker side uses.
 * @example
 * const scope: WorkerScope = self as unknown as WorkerScope;
 */
export interface WorkerScope {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/**
 * Options of `serveMockApiInWorker`.
 * @example
 * serveMockApiInWorker({ storage: 'opfs', seed: { count: 500 } });
 */
export interface ServeMockApiInWorkerOptions {
  /**
   * Sync mode (decision 0163): this database is a device's copy of a team server's data, synced
   * with it (pushed after each write, pulled every couple of seconds and when back online). Not
   * seeded: the first sync brings the data. The tabs hear how it stands on the `otto-sync` channel.
   * @example
   * void serveMockApiInWorker({ sync: { serverUrl: 'https://otto.example.com/api', token } });
   */
  sync?: SyncSettings;
  /**
   * Routes and migrations of your own, answered next to Otto's (see `defineExtension` in
   * `@otto/mock-backend`). Their writes reach every tab's `backend.onChange`.
   * @example
   * void serveMockApiInWorker({ extensions: [notesExtension] });
   */
  extensions?: readonly MockApiExtension[];
  /**
   * Scenarios of your own by name, next to the built-in ones (`?otto-scenario=`, `mockControl`).
   * @example void serveMockApiInWorker({ scenarios: { 'no-jobs': [{ method: 'GET', path: '/jobs', body: [] }] } });
   */
  scenarios?: Readonly<Record<string, readonly MockOverride[]>>;
  /**
   * `opfs` persists in the Origin Private File System and falls back to memory (with the spec's
   * warning) only when OPFS is unavailable.
   * @default 'opfs'
   */
  storage?: 'opfs' | 'memory' | 'auto';
  /**
   * Database file name.
   * @default 'otto.sqlite3'
   */
  filename?: string;
  /**
   * OPFS directory of the sahpool VFS.
   * @default '.otto'
   */
  opfsDirectory?: string;
  /**
   * What fills the database when it is empty (see `createMockApi`). In a browser prefer a database
   * file made at build time, `{ file: () => fetch('/otto-seed.sqlite3').then(async (r) => new Uint8Array(await r.arrayBuffer())) }`
   * (see `exportSeedDatabase`): it is put in place before the first open, so a first start runs no
   * migration and no inserts, and no data generator (faker) ships to the browser. `{ count }`
   * generates the data here.
   * @default { count: 500 }
   */
  seed?: MockApiOptions['seed'];
  /**
   * The clock, in epoch milliseconds.
   * @default Date.now
   */
  now?: () => number;
  /**
   * How long to keep retrying while another worker still holds the OPFS files (a tab that just
   * closed releases them a moment later).
   * @default 10000
   */
  busyRetryMs?: number;
  /**
   * Where messages go (the persistence warning among them).
   * @default createLogger()
   */
  logger?: Logger;
  /**
   * Load SQLite at once but open the database only when the page says so (`startBrowserBackend`
   * does, when its tab owns the database). Lets a page start this worker early, while its own
   * code loads, without touching the files another tab may hold.
   * @default false
   */
  waitForOpen?: boolean;
  /**
   * The page compiles `sqlite3.wasm` while this worker's script loads and posts it here
   * (`postCompiledSqlite`, called right after the worker is created): wait for that module instead
   * of fetching and compiling the file once the script has run. A message without a module (the
   * page could not compile it), or none within 10 seconds, loads the file here as usual.
   * @default false
   */
  compiledSqliteFromPage?: boolean;
  /**
   * The page sends the first-start file (`postSeedFile`, called right after the worker is created)
   * or says it sends none: wait for that message (at most 10 seconds) before calling `seed.file`.
   * The page's bytes are used only where the database does not exist yet; without them
   * `seed.file` is called as before.
   * @default false
   */
  seedFileFromPage?: boolean;
  /**
   * Keep a data stamp in this Cache Storage cache (see `dataStampHeader`): every GET answer carries
   * the stamp of the contents it was read from, in the `x-otto-data-stamp` header, and the stamp
   * in the cache (the `/__otto/data-stamp` entry) is removed before any write, delete, restore or
   * replacement is answered. A page can keep what it derived from an answer (Otto keeps its first
   * screen) tagged with that stamp and trust it later exactly while the cache still holds the same
   * stamp. No stamps without this option, nor where there is no Cache Storage.
   * @example
   * serveMockApiInWorker({ dataStampCache: 'otto-first-screen' });
   */
  dataStampCache?: string;
  /**
   * The version (build) of the app this worker belongs to. Writes sent with an older version in
   * the `x-otto-app-version` header are refused with 409 `APP_OUTDATED` ("Otto was updated in
   * another tab. Reload to continue."), so that older code never writes to a database a newer
   * build has taken over. Versions are compared as strings: later builds must sort after earlier
   * ones (a timestamp, say).
   */
  appVersion?: string;
  /**
   * Name of the BroadcastChannel on which change events go to every tab.
   * @default 'otto-changes'
   */
  changeChannelName?: string;
  /**
   * The worker scope to serve on.
   * @default globalThis
   */
  scope?: WorkerScope;
}

export type { WorkerBackendInfo };
