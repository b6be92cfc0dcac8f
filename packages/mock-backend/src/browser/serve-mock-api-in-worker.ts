import { StoreError, createSqliteStore, preloadSqlite, type SqliteStore } from '@otto/sqlite-store';
import { checkBackup } from '../database/check-backup';
import { createMockApi } from '../create-mock-api';
import { ApiError } from '../runtime/api-error';
import { startSyncRunner } from './sync-runner';
import { createLogger, type Logger } from '../logger';
import { createScenarios } from '../runtime/scenarios';
import { cacheShelf } from './cache-shelf';
import type { MockApi } from '../types';
import { createChangeBroadcast, defaultChangeChannelName } from './change-channel';
import { createDataStamp, type DataStamp } from './data-stamp';
import { databaseFileOperations } from './database-file-operations';
import { fetchDatabaseFile } from './files-from-page';
import { firstStartFile } from './first-start-file';

/** Put in by `ottoMockBackend({ seed })` (Vite's define): where the first-start file made at build time is served. */
declare const __OTTO_MOCK_SEED_FILE__: string | undefined;
import { holdLockForLife } from './hold-lock-for-life';
import { messageFromPage } from './message-from-page';
import {
  answerRequestsOn,
  isLongRunningRequest,
  transferablesOf,
  type WorkerBackendInfo,
  type WorkerRequestMessage,
  type WorkerResponseMessage,
} from './protocol';
import type { ServeMockApiInWorkerOptions, WorkerScope } from './types';
import { workerRequestQueue } from './worker-request-queue';
import { infoOf, toSerializedError } from './worker-replies';

/** Why a device in sync mode does not restore a backup, in words (decision 0169). */
const restoreOnDeviceRefusal =
  'This device syncs with your team server, so its data comes from there: a backup cannot be restored on it (it would bring back old records over your team’s newer work). To go back to a backup, restore it on the team server (ask whoever runs it); this device then takes it on its next sync.';

/**
 * Serves the mock API from a dedicated worker: opens the SQLite store (OPFS by default, memory with
 * the spec's warning when OPFS is unavailable), migrates and seeds it, then answers the page's
 * request, delete-database and export-database messages. The page side is `startBrowserBackend`.
 * Resolves with what was opened, or rejects (after posting `failed` to the page).
 * @example
 * // db.worker.ts
 * import { serveMockApiInWorker } from '@otto/mock-backend/worker';
 * void serveMockApiInWorker();
 */
export async function serveMockApiInWorker(given: ServeMockApiInWorkerOptions = {}): Promise<WorkerBackendInfo> {
  // Built with `ottoMockBackend({ seed })`: the first-start file the plugin made, unless told otherwise.
  const options: ServeMockApiInWorkerOptions =
    given.seed === undefined && typeof __OTTO_MOCK_SEED_FILE__ === 'string' ? { ...given, seed: { file: () => fetchDatabaseFile(__OTTO_MOCK_SEED_FILE__ as string) } } : given;
  const scope = options.scope ?? (globalThis as unknown as WorkerScope);
  const busyRetryMs = options.busyRetryMs ?? 10_000;
  const post = (message: WorkerResponseMessage, transfer: Transferable[] = []) => scope.postMessage(message, transfer);
  const givenLogger = options.logger ?? createLogger();
  // An error here is also the page's (a `problem`, logged there): a worker's console is out of reach
  // of some browsers' test drivers (WebKit's), and a 500's cause was seen only in it.
  const logger: Logger = {
    debug: (message, ...details) => givenLogger.debug(message, ...details),
    info: (message, ...details) => givenLogger.info(message, ...details),
    warn: (message, ...details) => givenLogger.warn(message, ...details),
    error(message, ...details) {
      givenLogger.error(message, ...details);
      post({ type: 'problem', message: [message, ...details.map(describeDetail)].join(' ') });
    },
  };

  // Every committed write goes out to every tab on this channel.
  const changes = createChangeBroadcast(options.changeChannelName ?? defaultChangeChannelName);
  const reset = () => changes.publish({ entity: 'database', kind: 'reset', ids: [] });

  const storage = options.storage ?? 'opfs';
  // The scenario in force and the snapshots outlast this worker (a reload, the next owner tab).
  const shelf = cacheShelf();
  const extensions = options.extensions ?? [];
  // One worker at a time uses the OPFS files: wait here quietly rather than fail to open them (and
  // have SQLite log each failure). The lock is held for the worker's life; the browser releases it
  // when the worker ends.
  // Told to wait: load SQLite now (a tab may start this worker before it knows it owns the
  // database) and touch the database only once the page says so.
  const told = options.waitForOpen
    ? new Promise<void>((resolve) => {
        scope.addEventListener('message', (event) => {
          if ((event.data as WorkerRequestMessage | null)?.type === 'open') resolve();
        });
      })
    : Promise.resolve();
  const wasm = options.compiledSqliteFromPage
    ? messageFromPage(scope, 'sqlite-wasm', logger, 'compiled sqlite3.wasm').then((message) => message?.module)
    : undefined;
  if (options.waitForOpen || wasm) void preloadSqlite({ wasm }).catch(() => undefined);
  const filesLocked = told.then(() =>
    storage === 'memory' ? () => {} : holdLockForLife(`otto-db-files:${options.opfsDirectory ?? '.otto'}`, busyRetryMs, () => {
          // Two workers on one database may each save over the other's changes: never expected (a
          // page that is left lets its worker go at once), so said loudly, in the page too.
          const message = `Another Otto page still held the database's files after ${busyRetryMs / 1000} s (a page frozen in the back/forward cache, or a worker that did not end): opening them anyway.`;
          logger.error(message);
        }),
  );
  // What a page may have kept from earlier answers stays trusted only until the next change. Read
  // once this worker holds the files: the previous owner has finished with the stamp by then.
  const stamp: DataStamp | undefined = options.dataStampCache ? createDataStamp(options.dataStampCache, filesLocked) : undefined;

  // A first-start database file is put in place before the first open (no empty database,
  // migration or inserts first): createMockApi then only moves its dates.
  const { newDatabase, takePageMoment } = firstStartFile(options, scope, logger, storage);
  const newStore = (seed = false): SqliteStore =>
    createSqliteStore({
      storage,
      logger,
      ...(seed && newDatabase && !options.sync ? { newDatabase } : {}),
      ...(options.filename ? { filename: options.filename } : {}),
      ...(options.opfsDirectory ? { opfsDirectory: options.opfsDirectory } : {}),
    });

  let syncRunner: { stop(): void } | undefined;
  async function open(seed = true): Promise<MockApi> {
    await filesLocked;
    const deadline = Date.now() + busyRetryMs;
    for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
      const store = newStore(seed);
      try {
        await store.open();
      } catch (error) {
        // The previous owner's worker (a tab that just closed) may release its handles a moment after its lock.
        if (error instanceof StoreError && error.code === 'BUSY' && Date.now() < deadline) {
          logger.debug(`The database is still held by the previous owner; retrying in ${delay} ms.`);
          await new Promise((resolve) => setTimeout(resolve, delay));
          continue;
        }
        throw error;
      }
      try {
        // The page may have shown the first screen with the dates moved to a moment it chose.
        const seedMoment = await takePageMoment();
        const api = await createMockApi({ extensions,
          controlShelf: shelf,
          // The scenario is applied before the queue (worker-request-queue.ts), once.
          applyScenarios: false,
          // Nothing pulls from a tab's database (the app alone, or a device's copy): no change log.
          changeLog: false,
          store,
          logger,
          onChange: changes.publish,
          ...(seedMoment !== undefined ? { seedMoment } : {}),
          // A device's copy is not seeded: its first sync brings the server's data.
          ...(!seed || options.sync ? { seed: false as const } : options.seed !== undefined ? { seed: options.seed } : {}),
          ...(options.now ? { now: options.now } : {}),
        });
        // Where the database is a snapshot in IndexedDB (no OPFS): keep what migrations and seeding did.
        await store.flush?.();
        // A database made just now (first start, or after a delete) holds none of what was kept,
        // and one in memory (no OPFS) is made anew on every visit: nothing is kept from it.
        const lasting = api.info.mode === 'opfs' || api.info.mode === 'indexeddb';
        await stamp?.keep(lasting);
        // A database exists here now: no page takes the next start for a first one (decision 0009).
        void stamp?.made();
        if (api.info.seeded.customers > 0) await stamp?.invalidate();
        // Sync mode: this copy syncs with its team server while it is open.
        if (options.sync) {
          syncRunner?.stop();
          const runner = await startSyncRunner({ api, settings: options.sync, publish: changes.publish, logger });
          syncRunner = runner;
          // An import (and its undo) is the team server's to run: its rows come down with the next pull.
          return { ...api, fetch: (request: Request) => (isLongRunningRequest(request.method, request.url) ? runner.forward(request) : api.fetch(request)) };
        }
        return api;
      } catch (error) {
        // A database that opened but cannot be used (newer schema, failed migration, damaged pages):
        // release it, so that recovery can read or replace the file.
        await store.close().catch(() => undefined);
        throw error;
      }
    }
  }

  const { readFileOf, replaceFileAndReopen, restoreAndReopen, deleteAndReopen } = databaseFileOperations({
    newStore,
    open,
    logger,
    extensions,
    changes,
    options,
  });

  // Every message waits for the current database; delete-database chains a fresh one after it.
  let current: Promise<MockApi> = open();

  // Kept across reopens (a restore, a delete): a scenario lasts as long as this worker.
  const scenarios = createScenarios(options.scenarios, shelf, (name) =>
    logger.warn(`A scenario kept from an earlier page is in force${name ? ` (“${name}”)` : ''}: /api answers as it says until ?otto-scenario=none or DELETE /api/__otto/scenario.`),
  );
  const { serveRequest, stop } = workerRequestQueue({ current: () => current, stamp, filesLocked, options, scenarios });

  scope.addEventListener('message', (event) => {
    const message = event.data as WorkerRequestMessage;
    if (message?.type === 'connect-port') {
      const port = event.ports?.[0];
      // A port from the service worker: it sends requests straight here, skipping the tabs.
      if (port) answerRequestsOn(port, serveRequest);
      return;
    }
    if (message?.type === 'open' || message?.type === 'sqlite-wasm' || message?.type === 'seed-file' || message?.type === 'seed-moment') return;
    if (message?.type === 'stop') {
      void stop().then(() => post({ type: 'stopped', id: message.id }));
      return;
    }
    // A device's copy is the team server's data: a backup put in its place would bring back old
    // records and the ids this device gave since, and replace people's newer work on the next sync
    // (issue 53, decision 0169). Refused in words, before anything is touched.
    if (options.sync && (message?.type === 'restore-database' || (message?.type === 'replace-database-file' && message.backup !== undefined))) {
      post({ type: 'error', id: message.id, error: toSerializedError(new ApiError(409, 'CONFLICT', restoreOnDeviceRefusal)) });
      return;
    }
    // A database that could not be opened is deleted as a file, unopened (the debug delete works then too).
    if (message?.type === 'delete-database' || message?.type === 'replace-database-file' || message?.type === 'restore-database') {
      // The data is about to be replaced: nothing kept from it is trusted from now on.
      void stamp?.invalidate();
    }
    if (message?.type === 'delete-database') current = current.then(deleteAndReopen, () => replaceFileAndReopen(undefined, false).then((r) => r.api));
    if (message?.type === 'replace-database-file') {
      const { backup } = message;
      const before = current;
      const replaced = (async () => {
        // A backup that fails its checks changes nothing.
        if (backup) await checkBackup(backup);
        const api = await before.catch(() => undefined);
        if (api) {
          await api.close();
          await api.store.close();
        }
        return replaceFileAndReopen(backup, message.keepAside);
      })();
      current = replaced.then(
        (r) => r.api,
        (error: unknown) => (backup ? before : Promise.reject(error)),
      );
      current.catch(() => undefined);
      void replaced.then(
        async ({ api, setAside }) => {
          await stamp?.invalidate();
          reset();
          post({ type: 'replaced', id: message.id, info: infoOf(api), ...(setAside ? { setAside } : {}) });
        },
        (error: unknown) => post({ type: 'error', id: message.id, error: toSerializedError(error) }),
      );
      return;
    }
    if (message?.type === 'restore-database') {
      const before = current;
      let fallback = before;
      const restored = before.then((api) =>
        restoreAndReopen(api, message.backup, (recovered) => (fallback = Promise.resolve(recovered))),
      );
      // A backup that fails its checks changes nothing: keep answering from the current database.
      current = restored.catch(() => fallback);
      void restored.then(
        async (api) => {
          await stamp?.invalidate();
          reset();
          post({ type: 'restored', id: message.id, info: infoOf(api) });
        },
        (error: unknown) => post({ type: 'error', id: message.id, error: toSerializedError(error) }),
      );
      return;
    }
    void answer(message).catch((error: unknown) => {
      if (typeof message?.id === 'number') post({ type: 'error', id: message.id, error: toSerializedError(error) });
    });
  });

  async function answer(message: WorkerRequestMessage): Promise<void> {
    switch (message?.type) {
      case 'request': {
        const response = await serveRequest(message.request);
        post({ type: 'response', id: message.id, response }, transferablesOf(response));
        return;
      }
      case 'export-database': {
        const bytes = (await current).store.exportDatabase();
        const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
        post({ type: 'exported', id: message.id, bytes: buffer }, [buffer]);
        return;
      }
      case 'delete-database':
        post({ type: 'deleted', id: message.id, info: infoOf(await current) });
        reset();
        return;
      case 'read-database-file': {
        const api = await current.catch(() => undefined);
        const bytes = api ? api.store.exportDatabase() : await readFileOf(newStore());
        const buffer = bytes ? (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer) : null;
        post({ type: 'database-file', id: message.id, bytes: buffer }, buffer ? [buffer] : []);
        return;
      }
    }
  }

  try {
    const info = infoOf(await current);
    post({ type: 'ready', info });
    return info;
  } catch (error) {
    post({ type: 'failed', error: toSerializedError(error) });
    throw error;
  }
}

/** A detail of a log line in words: an error's name, code and message, anything else as text. */
function describeDetail(detail: unknown): string {
  if (detail instanceof Error) {
    const code = (detail as { code?: unknown }).code;
    return `${detail.name}${typeof code === 'string' ? ` ${code}` : ''}: ${detail.message}`;
  }
  try {
    return typeof detail === 'string' ? detail : JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}
