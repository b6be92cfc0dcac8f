import { StoreError, createSqliteStore, isNewOpfsPool, keepFileAside, preloadSqlite, type SqliteStore } from '@otto/sqlite-store';
import { checkBackup } from '../database/check-backup';
import { createMockApi } from '../create-mock-api';
import { createLogger, type Logger } from '../logger';
import type { MockApi } from '../types';
import { createChangeBroadcast, defaultChangeChannelName } from './change-channel';
import { createDataStamp, dataStampHeader, type DataStamp } from './data-stamp';
import {
  answerRequestsOn,
  appVersionHeader,
  deserializeRequest,
  errorMessage,
  isLongRunningRequest,
  movedAnswer,
  relayErrorSerialized,
  serializeResponse,
  transferablesOf,
  type SerializedError,
  type SerializedRequest,
  type SerializedResponse,
  type SetAsideFileInfo,
  type WorkerBackendInfo,
  type WorkerRequestMessage,
  type WorkerResponseMessage,
} from './protocol';
import type { ServeMockApiInWorkerOptions, WorkerScope } from './types';

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
export async function serveMockApiInWorker(options: ServeMockApiInWorkerOptions = {}): Promise<WorkerBackendInfo> {
  const scope = options.scope ?? (globalThis as unknown as WorkerScope);
  const logger = options.logger ?? createLogger();
  const busyRetryMs = options.busyRetryMs ?? 10_000;
  const post = (message: WorkerResponseMessage, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

  // Every committed write goes out to every tab on this channel.
  const changes = createChangeBroadcast(options.changeChannelName ?? defaultChangeChannelName);
  const reset = () => changes.publish({ entity: 'database', kind: 'reset', ids: [] });

  const storage = options.storage ?? 'opfs';
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
    storage === 'memory' ? () => {} : holdLockForLife(`otto-db-files:${options.opfsDirectory ?? '.otto'}`, busyRetryMs),
  );
  // What a page may have kept from earlier answers stays trusted only until the next change. Read
  // once this worker holds the files: the previous owner has finished with the stamp by then.
  const stamp: DataStamp | undefined = options.dataStampCache ? createDataStamp(options.dataStampCache, filesLocked) : undefined;

  // A first-start database file is put in place before the first open (no empty database,
  // migration or inserts first): createMockApi then only moves its dates.
  const seedFile = options.seed && 'file' in options.seed ? options.seed.file : undefined;
  // The page's copy of that file (`postSeedFile`), fetched while this script loaded.
  const fromPage = options.seedFileFromPage
    ? messageFromPage(scope, 'seed-file', logger, 'first-start file').then((message) => (message?.bytes ? new Uint8Array(message.bytes) : undefined))
    : undefined;
  // The moment the page chose for a first start's dates (posted at once, before the file): asked
  // for only when a database is made; a later fresh start (a delete) uses its own.
  const fromPageMoment = options.seedFileFromPage ? messageFromPage(scope, 'seed-moment', logger, 'first-start moment') : undefined;
  let pageMoment: Promise<number | undefined> | undefined;
  const loadSeedFile = async () => (await fromPage) ?? (typeof seedFile === 'function' ? seedFile() : seedFile);
  // On a first start (no OPFS directory yet) the file loads while SQLite does, not after the open.
  let seedFirst =
    seedFile && storage === 'opfs'
      ? isNewOpfsPool(options.opfsDirectory).then((first) => (first ? loadSeedFile() : undefined)).catch(() => undefined)
      : undefined;
  const newDatabase = seedFile
    ? async () => {
        const early = seedFirst;
        seedFirst = undefined;
        pageMoment = fromPageMoment?.then((message) => message?.moment);
        return (await early) ?? loadSeedFile();
      }
    : undefined;
  const newStore = (seed = false): SqliteStore =>
    createSqliteStore({
      storage,
      logger,
      ...(seed && newDatabase ? { newDatabase } : {}),
      ...(options.filename ? { filename: options.filename } : {}),
      ...(options.opfsDirectory ? { opfsDirectory: options.opfsDirectory } : {}),
    });

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
        const seedMoment = await pageMoment;
        pageMoment = undefined;
        const api = await createMockApi({ extensions,
          store,
          logger,
          onChange: changes.publish,
          ...(seedMoment !== undefined ? { seedMoment } : {}),
          ...(!seed ? { seed: false as const } : options.seed !== undefined ? { seed: options.seed } : {}),
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
        return api;
      } catch (error) {
        // A database that opened but cannot be used (newer schema, failed migration, damaged pages):
        // release it, so that recovery can read or replace the file.
        await store.close().catch(() => undefined);
        throw error;
      }
    }
  }

  // Every message waits for the current database; delete-database chains a fresh one after it.
  let current: Promise<MockApi> = open();

  /** Requests being answered, so that `stop` can let them finish. */
  const inFlight = new Set<Promise<unknown>>();
  /** The last request in line (answers never reject). */
  let queue: Promise<unknown> = Promise.resolve();
  let stopping = false;

  /** Answers one API request; never rejects. */
  function serveRequest(request: SerializedRequest): Promise<SerializedResponse> {
    if (stopping) return Promise.resolve(movedAnswer);
    const outdated = refuseOutdated(request);
    if (outdated) return Promise.resolve(outdated);
    const answer = () =>
      current
        .then(async (api) => {
          const read = request.method === 'GET' || request.method === 'HEAD';
          // Before a write changes anything, what was kept from earlier answers stops being trusted.
          if (!read) await stamp?.invalidate();
          // A read is stamped only when nothing was invalidated while it ran (a restore, say).
          const since = stamp?.epoch();
          const response = await api.fetch(deserializeRequest(request));
          // A write is answered once it is kept (a no-op on OPFS, where the commit is the file).
          if (!read) await api.store.flush?.();
          const serialized = await serializeResponse(response);
          if (read) {
            const current = stamp?.current(since);
            if (current) serialized.headers.push([dataStampHeader, current]);
          } else {
            // Again once it is done: a read beside a long-running import may have made a new stamp.
            await stamp?.invalidate();
          }
          return serialized;
        })
        .catch((error: unknown) => relayErrorSerialized(503, 'SERVICE_UNAVAILABLE', errorMessage(error)));
    // One request at a time, first come first answered: run side by side, a burst of 200 writes
    // would each wait at every await for all the others and be answered together at the end,
    // long after the first was done (and past the relays' time limits on a slow machine). An
    // import of many rows runs beside the queue, so that the app stays usable during it.
    let work: Promise<SerializedResponse>;
    if (isLongRunningRequest(request.method, request.url)) work = answer();
    else queue = work = queue.then(answer);
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return work;
  }

  /** A write from a build older than this one: the database may already have moved on (issue: one version owns it). */
  function refuseOutdated(request: SerializedRequest): SerializedResponse | undefined {
    if (!options.appVersion || request.method === 'GET' || request.method === 'HEAD') return undefined;
    const sender = request.headers.find(([name]) => name.toLowerCase() === appVersionHeader)?.[1];
    if (!sender || sender >= options.appVersion) return undefined;
    const body = new TextEncoder().encode(
      JSON.stringify({ code: 'APP_OUTDATED', message: 'Otto was updated in another tab. Reload to continue.' }),
    ).buffer as ArrayBuffer;
    return { status: 409, statusText: 'Conflict', headers: [['content-type', 'application/json; charset=utf-8']], body };
  }

  /** Lets what is in flight finish, then closes the database so that the next owner can open it. */
  async function stop(): Promise<void> {
    stopping = true;
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    const api = await current.catch(() => undefined);
    await api?.close();
    await api?.store.close();
    // The next owner reads the stamp once it holds the files: finish with it first, but never
    // keep the files from it for long (a closing page's cache may not answer); its first write
    // removes whatever stamp is there anyway.
    await Promise.race([stamp?.idle(), new Promise((resolve) => setTimeout(resolve, 250))]);
    // The files are free: the next owner need not wait for this worker to end (WebKit ends the
    // worker of a page that was left only seconds later).
    (await filesLocked)();
  }

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
    // A database that could not be opened is deleted as a file, unopened (the debug delete works then too).
    if (message?.type === 'delete-database' || message?.type === 'replace-database-file' || message?.type === 'restore-database') {
      // The data is about to be replaced: nothing kept from it is trusted from now on.
      void stamp?.invalidate();
    }
    if (message?.type === 'delete-database') current = current.then(deleteAndReopen, () => replaceFileAndReopen(undefined, false).then((r) => r.api));
    if (message?.type === 'replace-database-file') {
      const bytes = message.bytes ? new Uint8Array(message.bytes) : undefined;
      const before = current;
      const replaced = (async () => {
        // A backup that fails its checks changes nothing.
        if (bytes) await checkBackup(bytes);
        const api = await before.catch(() => undefined);
        if (api) {
          await api.close();
          await api.store.close();
        }
        return replaceFileAndReopen(bytes, message.keepAside);
      })();
      current = replaced.then(
        (r) => r.api,
        (error: unknown) => (bytes ? before : Promise.reject(error)),
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
        restoreAndReopen(api, new Uint8Array(message.bytes), (recovered) => (fallback = Promise.resolve(recovered))),
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

  async function readFileOf(store: SqliteStore): Promise<Uint8Array | undefined> {
    if (!store.readDatabaseFile) throw new StoreError('OPEN_FAILED', 'This database has no file of its own to read.');
    return store.readDatabaseFile();
  }

  /** Keeps the file aside (when asked), puts `bytes` or nothing in its place, and opens the result. */
  async function replaceFileAndReopen(bytes: Uint8Array | undefined, keepAside: boolean): Promise<{ api: MockApi; setAside?: SetAsideFileInfo }> {
    const store = newStore();
    if (!store.replaceDatabaseFile) throw new StoreError('OPEN_FAILED', 'This database has no file of its own to replace.');
    let setAside: SetAsideFileInfo | undefined;
    if (keepAside) {
      const old = await readFileOf(store);
      if (old && old.byteLength > 0) setAside = await keepFileAside(old);
    }
    await store.replaceDatabaseFile(bytes);
    logger.info(bytes ? 'Put a backup in place of the database file.' : 'Removed the database file; starting a fresh one.');
    return { api: await open(!bytes), ...(setAside ? { setAside } : {}) };
  }

  async function restoreAndReopen(api: MockApi, bytes: Uint8Array, onRecovered: (api: MockApi) => void): Promise<MockApi> {
    const summary = await checkBackup(bytes);
    const { store } = api;
    if (!store.replaceDatabase) throw new StoreError('OPEN_FAILED', 'This database cannot be replaced.');
    const previous = store.exportDatabase();
    await api.close();
    try {
      await store.replaceDatabase(bytes);
      // A restored database is never seeded, even when it holds no customers.
      const restored = await createMockApi({ extensions, store, logger, seed: false, onChange: changes.publish, ...(options.now ? { now: options.now } : {}) });
      logger.info(`Restored a backup with ${summary.customers} customers and ${summary.jobs} jobs.`);
      return restored;
    } catch (error) {
      // Put the data back as it was before the restore began.
      try {
        await store.replaceDatabase(previous);
        onRecovered(await createMockApi({ extensions, store, logger, seed: false, onChange: changes.publish }));
      } catch (recovery) {
        logger.error('The restore failed and the previous data could not be put back:', recovery);
        onRecovered(await createMockApi({ extensions, store, logger, seed: false, onChange: changes.publish }).catch(() => api));
        throw new StoreError(
          'OPEN_FAILED',
          `The restore failed (${errorMessage(error)}) and the previous data could not be put back. Keep the backup file, reload Otto and restore it again.`,
          { cause: recovery },
        );
      }
      throw error;
    }
  }

  async function deleteAndReopen(api: MockApi): Promise<MockApi> {
    await api.close();
    await api.store.deleteDatabase();
    logger.info('Deleted the database; starting a fresh one.');
    return open();
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

/**
 * Takes a Web Lock and keeps it until this worker ends. Resolves once granted, or after `waitMs`
 * without it (opening then fails with BUSY, or succeeds if the holder does not use the files).
 */
/**
 * Takes the lock `name` (waiting at most `waitMs` for it) and holds it until `release` is called
 * or the worker ends. Resolves with `release` once held, or once the wait is given up.
 */
function holdLockForLife(name: string, waitMs: number): Promise<() => void> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return Promise.resolve(() => {});
  return new Promise((resolve) => {
    const giveUp = new AbortController();
    const timer = setTimeout(() => giveUp.abort(), waitMs);
    locks
      .request(name, { signal: giveUp.signal }, () => {
        clearTimeout(timer);
        return new Promise<void>((release) => resolve(release));
      })
      .catch(() => resolve(() => {}));
  });
}

function infoOf(api: MockApi): WorkerBackendInfo {
  const { info } = api;
  return {
    storage: info.mode === 'opfs' || info.mode === 'indexeddb' ? info.mode : 'memory',
    filename: info.filename,
    sqliteVersion: info.sqliteVersion,
    schemaVersion: info.schemaVersion,
    seeded: info.seeded.customers,
    ...(info.fallbackReason ? { fallbackReason: info.fallbackReason } : {}),
  };
}

function toSerializedError(error: unknown): SerializedError {
  const code = error instanceof StoreError ? error.code : 'INTERNAL';
  return { code, message: errorMessage(error) };
}

/**
 * The first message of `type` the page posts (`postCompiledSqlite`, `postSeedFile`), or undefined
 * when none came within 10 seconds (the worker then loads `what` itself).
 */
function messageFromPage<T extends 'sqlite-wasm' | 'seed-file' | 'seed-moment'>(
  scope: WorkerScope,
  type: T,
  logger: Logger,
  what: string,
): Promise<Extract<WorkerRequestMessage, { type: T }> | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger.warn(`The page sent no ${what} within 10 seconds; loading it here.`);
      resolve(undefined);
    }, 10_000);
    scope.addEventListener('message', (event) => {
      const message = event.data as WorkerRequestMessage | null;
      if (message?.type !== type) return;
      clearTimeout(timer);
      resolve(message as Extract<WorkerRequestMessage, { type: T }>);
    });
  });
}
