import { StoreError, codeForSqliteError, notInitialized, runSql } from './store-error';
import { runTransaction, type TransactionDepth } from './transaction';
import { runMigrations } from './migrate';
import { isBusyError, isQuotaError, loadSqlite, opfsAvailable, vfsQuotaErrors, type Sqlite3 } from './sqlite-module';
import { opfsDirectory, opfsReachable } from './opfs-directory';
import { guardConnection } from './guard-connection';
import { deleteSnapshot, indexedDbAvailable, readSnapshot, writeSnapshot } from './indexeddb-snapshot';
import type {
  BindParams,
  Migration,
  MigrationResult,
  RunResult,
  SqliteStore,
  SqliteStoreOptions,
  StoreInfo,
} from './types';

type OoDb = InstanceType<Sqlite3['oo1']['DB']>;
type OoStmt = ReturnType<OoDb['prepare']>;
type PoolUtil = Awaited<ReturnType<Sqlite3['installOpfsSAHPoolVfs']>>;

const maxCachedStatements = 200;

/** The OPFS directory of a store's sahpool VFS when `opfsDirectory` is not given. */
const defaultOpfsDirectory = '.otto';

/**
 * True when OPFS is there but holds no pool directory `directory` yet: no store has opened a
 * database there (a first start). False where it exists, where there is no OPFS, or on any error.
 * Lets a caller fetch a first-start file (`newDatabase`) while SQLite loads, before `open()`.
 * @example
 * const early = (await isNewOpfsPool()) ? fetchSeedFile() : undefined;
 */
export async function isNewOpfsPool(directory: string = defaultOpfsDirectory): Promise<boolean> {
  if (!opfsReachable()) return false;
  try {
    return (await opfsDirectory(directory, false)) === undefined;
  } catch {
    return false;
  }
}

// One sahpool VFS per OPFS directory and thread. Closing a store pauses it (releasing the OPFS
// handles for another tab), never removes it: removeVfs() deletes every file in the directory.
const pools = new Map<string, PoolUtil>();

async function acquirePool(s: Sqlite3, directory: string): Promise<PoolUtil> {
  const cached = pools.get(directory);
  if (cached) return cached.isPaused() ? cached.unpauseVfs() : cached;
  const pool = await s.installOpfsSAHPoolVfs({
    directory,
    // Failures reach the caller as StoreError. Error lines only (1): they go to the module's error
    // logger, which counts quota refusals (see vfsQuotaErrors) and drops the rest.
    verbosity: 1,
    preserveOnInitFailure: true,
    forceReinitIfPreviouslyFailed: true,
    // A new pool makes this many OPFS files (each with a sync access handle: the slowest step of a
    // first start after loading SQLite). A store uses two: the database and its WAL; the third is
    // for the rollback journal an older file may still have while it moves to WAL. Temporary files
    // stay in memory (the build's SQLITE_TEMP_STORE). The library's default is 6.
    initialCapacity: 3,
  } as Parameters<Sqlite3['installOpfsSAHPoolVfs']>[0]);
  pools.set(directory, pool);
  return pool;
}

/**
 * Per-connection settings. On OPFS the database is in WAL mode, with the connection holding its
 * lock for its life (`locking_mode = EXCLUSIVE`: one connection per file, the DB worker's, so the
 * WAL index lives in the connection's memory and the VFS needs no shared memory). A commit then
 * appends its pages to the WAL and flushes that one file once (`synchronous = FULL`: every
 * acknowledged write is on disk, as before); with the rollback journal it replaces, each changed
 * page was written twice (journal, then database) and both files flushed. A one-row write in the
 * DB worker: 1.7 → 0.8 ms (500 customers, `pnpm bench`, decision 0115). The locking mode is set
 * first: a database already in WAL mode must not be read before it. Returns the journal mode.
 */
function configure(conn: OoDb, mode: 'opfs' | 'memory' | 'indexeddb'): string {
  let journal = 'memory';
  if (mode === 'opfs') {
    conn.exec('PRAGMA locking_mode = EXCLUSIVE');
    journal = String(conn.selectValue('PRAGMA journal_mode = WAL'));
    // A VFS that cannot keep a WAL leaves the mode as it was: keep the journal then (PERSIST: zeroing
    // its header instead of deleting it spares a file operation per commit).
    if (journal !== 'wal') journal = String(conn.selectValue('PRAGMA journal_mode = PERSIST'));
    conn.exec('PRAGMA synchronous = FULL');
  }
  conn.exec('PRAGMA foreign_keys = ON');
  return journal;
}

/**
 * Removes from the pool the files beside a database: its WAL (one left beside another database file
 * would be replayed into it) and the journal of Otto before decision 0115.
 */
function unlinkCompanions(pool: PoolUtil, path: string): void {
  for (const suffix of ['-wal', '-journal']) pool.unlink(`${path}${suffix}`);
}

/**
 * `bytes` marked as a rollback-journal database (header bytes 18-19 = 1), for a file that travels
 * or opens alone: a copy when they said WAL (2), else the same bytes.
 */
function asSingleFile(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength < 20 || bytes[18] !== 2 || bytes[19] !== 2) return bytes;
  // Uint8Array.from, not slice: a Node Buffer's slice shares the caller's memory.
  const copy = Uint8Array.from(bytes);
  copy[18] = copy[19] = 1;
  return copy;
}

/**
 * Creates a store on the official SQLite WASM build. Call `open()` before anything else.
 * @example
 * const store = createSqliteStore({ storage: 'auto' });
 * const info = await store.open(); // { mode: 'opfs', filename: 'otto.sqlite3', … }
 * store.run('INSERT INTO notes(text) VALUES (?)', ['hello']);
 */
export function createSqliteStore(options: SqliteStoreOptions = {}): SqliteStore {
  const filename = options.filename ?? 'otto.sqlite3';
  const storage = options.storage ?? 'auto';
  const logger = options.logger ?? console;
  let sqlite3: Sqlite3 | undefined;
  let db: OoDb | undefined;
  let pool: PoolUtil | undefined;
  let info: StoreInfo | undefined;
  let opening: Promise<StoreInfo> | undefined;
  const depth: TransactionDepth = { value: 0 };
  const statements = new Map<string, OoStmt>();
  const snapshotKey = `${options.opfsDirectory ?? defaultOpfsDirectory}/${filename}`;
  /** In `indexeddb` mode: sqlite3_total_changes at the last saved snapshot (-1: save at the next flush). */
  let savedChanges = -1;
  let saving: Promise<void> = Promise.resolve();

  function requireDb(): OoDb {
    if (!db) throw notInitialized();
    return db;
  }

  function wrap<T>(sql: string, fn: () => T): T {
    const quotaRefusals = vfsQuotaErrors.count;
    try {
      return runSql(sql, fn, codeForSqliteError);
    } catch (error) {
      // OPFS refused a write for want of quota during this statement: the VFS reported a plain
      // I/O error, but what the caller must hear is that the storage is full.
      if (error instanceof StoreError && error.code !== 'STORAGE_FULL' && vfsQuotaErrors.count !== quotaRefusals) {
        throw new StoreError('STORAGE_FULL', `The browser's storage quota is used up, so the write was refused: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }

  function statement(sql: string): OoStmt {
    const conn = requireDb();
    let stmt = statements.get(sql);
    if (!stmt) {
      if (statements.size >= maxCachedStatements) finalizeStatements();
      stmt = conn.prepare(sql);
      statements.set(sql, stmt);
    }
    return stmt;
  }

  function finalizeStatements(): void {
    for (const stmt of statements.values()) stmt.finalize();
    statements.clear();
  }

  function withStatement<T>(sql: string, params: BindParams | undefined, fn: (stmt: OoStmt) => T): T {
    return wrap(sql, () => {
      const stmt = statement(sql);
      try {
        if (params && (Array.isArray(params) ? params.length > 0 : Object.keys(params).length > 0)) {
          stmt.bind(params as never);
        }
        return fn(stmt);
      } finally {
        stmt.reset(true);
      }
    });
  }

  async function openPersistent(s: Sqlite3): Promise<{ db: OoDb; fallbackReason?: string; snapshot?: boolean }> {
    const available = opfsAvailable();
    if (!available.ok) {
      if (storage === 'auto' && typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'undefined') {
        return { db: openMemory(s, await options.newDatabase?.()) };
      }
      // No OPFS, but IndexedDB: memory, with a copy of the file kept there after every write.
      if (options.snapshotFallback !== false && indexedDbAvailable()) {
        try {
          // No snapshot yet: the database starts as a new one would (newDatabase), else empty.
          const bytes = (await readSnapshot(snapshotKey)) ?? (await options.newDatabase?.());
          logger.info?.(`No OPFS here (${available.reason}); keeping the database as a snapshot in IndexedDB.`);
          return { db: openMemory(s, bytes), fallbackReason: available.reason, snapshot: true };
        } catch (error) {
          return fallBack(s, `${available.reason}; IndexedDB failed too (${(error as Error)?.message ?? error})`, await options.newDatabase?.());
        }
      }
      return fallBack(s, available.reason, await options.newDatabase?.());
    }
    try {
      pool = await acquirePool(s, options.opfsDirectory ?? defaultOpfsDirectory);
      if (options.newDatabase && !pool.getFileNames().includes(`/${filename}`)) {
        const bytes = await options.newDatabase();
        unlinkCompanions(pool, `/${filename}`);
        if (bytes) await pool.importDb(`/${filename}`, bytes);
      }
      return { db: new pool.OpfsSAHPoolDb(`/${filename}`) as unknown as OoDb };
    } catch (error) {
      if (isBusyError(error)) {
        throw new StoreError(
          'BUSY',
          'Failed to open the database: it is open in another tab or worker. Close it there, or wait and retry.',
          { cause: error },
        );
      }
      if (isQuotaError(error)) {
        // The file is there but OPFS has no room to open it: in memory, the person would work on an
        // empty database and lose what they type. Say so instead (decision 0052).
        throw new StoreError('STORAGE_FULL', 'Failed to open the database: the browser has no storage space left for it. Free some disk space, then reload.', {
          cause: error,
        });
      }
      const reason = error instanceof Error ? error.message : String(error);
      return fallBack(s, reason, await options.newDatabase?.().catch(() => undefined));
    }
  }

  function fallBack(s: Sqlite3, reason: string, bytes?: Uint8Array): { db: OoDb; fallbackReason: string } {
    logger.warn(
      `Persistence failed: ${reason}. Falling back to in-memory storage; changes will not be saved.`,
    );
    return { db: openMemory(s, bytes), fallbackReason: reason };
  }

  /** The sahpool VFS with no connection open on it, for work on the raw file. */
  async function rawPool(): Promise<PoolUtil> {
    if (opening) await opening.catch(() => undefined);
    if (db) {
      finalizeStatements();
      try {
        db.close();
      } catch {
        // A damaged database may fail to close cleanly; its handle is gone either way.
      }
      db = undefined;
      info = undefined;
      depth.value = 0;
    }
    if (storage === 'memory' || !opfsAvailable().ok) {
      throw new StoreError('OPEN_FAILED', 'This database is not kept in a file (OPFS is not available here), so there is no file to read or replace.');
    }
    sqlite3 ??= await loadSqlite();
    pool ??= await acquirePool(sqlite3, options.opfsDirectory ?? defaultOpfsDirectory);
    return pool;
  }

  function releasePool(): void {
    pool?.pauseVfs();
    pool = undefined;
  }

  /** In `indexeddb` mode: saves a snapshot when something changed since the last one. */
  function flush(): Promise<void> {
    saving = saving.then(async () => {
      if (!db || info?.mode !== 'indexeddb') return;
      const total = Number(sqlite3!.capi.sqlite3_total_changes(db.pointer!));
      if (total === savedChanges) return;
      await writeSnapshot(snapshotKey, sqlite3!.capi.sqlite3_js_db_export(db.pointer!));
      savedChanges = total;
    });
    return saving;
  }

  const store: SqliteStore = {
    flush,
    async readDatabaseFile() {
      const usedPool = await rawPool();
      try {
        // The file exactly as it is, read around SQLite (it may not open). A WAL a crashed tab left
        // beside it is not in it: opening the two to read them would write the WAL into the file.
        if (!usedPool.getFileNames().includes(`/${filename}`)) return undefined;
        return usedPool.exportFile(`/${filename}`);
      } finally {
        releasePool();
      }
    },
    async replaceDatabaseFile(bytes?: Uint8Array) {
      const usedPool = await rawPool();
      try {
        usedPool.unlink(`/${filename}`);
        unlinkCompanions(usedPool, `/${filename}`);
        if (bytes) await usedPool.importDb(`/${filename}`, bytes);
      } catch (error) {
        throw new StoreError('OPEN_FAILED', `The database file could not be replaced: ${(error as Error)?.message ?? error}`, { cause: error });
      } finally {
        releasePool();
      }
    },
    get isOpen() {
      return db !== undefined;
    },
    get info() {
      requireDb();
      return info as StoreInfo;
    },
    open() {
      if (info && db) return Promise.resolve(info);
      opening ??= (async () => {
        try {
          sqlite3 = await loadSqlite();
          const opened =
            storage === 'memory'
              ? { db: openMemory(sqlite3, options.initialData ?? (await options.newDatabase?.())) }
              : await openPersistent(sqlite3);
          db = opened.db;
          const mode = 'snapshot' in opened && opened.snapshot ? 'indexeddb' : opened.fallbackReason || !pool ? 'memory' : 'opfs';
          savedChanges = -1;
          // In memory (and the IndexedDB snapshot's memory) SQLite keeps no journal file: `memory`.
          const journalMode = configure(db, mode);
          if (options.untrusted) guardConnection(sqlite3, db.pointer!, options.untrusted);
          info = {
            mode,
            filename: mode === 'memory' ? ':memory:' : filename,
            sqliteVersion: sqlite3.version.libVersion,
            journalMode,
            ...(opened.fallbackReason ? { fallbackReason: opened.fallbackReason } : {}),
          };
          return info;
        } catch (error) {
          // A file that opened but cannot be read (damaged, not a database): leave nothing open on it.
          if (db && !info) {
            try {
              db.close();
            } catch {
              // Already unusable.
            }
            db = undefined;
          }
          if (error instanceof StoreError) throw error;
          throw new StoreError('OPEN_FAILED', `Failed to open the database: ${(error as Error)?.message ?? error}`, {
            cause: error,
          });
        } finally {
          opening = undefined;
        }
      })();
      return opening;
    },
    exec(sql) {
      wrap(sql, () => requireDb().exec(sql));
    },
    run(sql, params): RunResult {
      return withStatement(sql, params, (stmt) => {
        stmt.step();
        const conn = requireDb();
        return {
          changes: conn.changes(),
          lastInsertRowid: Number(sqlite3!.capi.sqlite3_last_insert_rowid(conn.pointer!)),
        };
      });
    },
    all<T>(sql: string, params?: BindParams): T[] {
      return withStatement(sql, params, (stmt) => {
        const rows: T[] = [];
        while (stmt.step()) rows.push(stmt.get({}) as T);
        return rows;
      });
    },
    get<T>(sql: string, params?: BindParams): T | undefined {
      return withStatement(sql, params, (stmt) => (stmt.step() ? (stmt.get({}) as T) : undefined));
    },
    transaction<T>(fn: () => T): T {
      const conn = requireDb();
      return runTransaction((sql) => wrap(sql, () => conn.exec(sql)), depth, fn);
    },
    migrate(migrations: readonly Migration[]): MigrationResult {
      requireDb();
      return runMigrations(store, migrations);
    },
    userVersion() {
      return Number(store.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0);
    },
    exportDatabase() {
      const conn = requireDb();
      // The whole database, the WAL's pages included, as one file that opens anywhere.
      return wrap('export', () => asSingleFile(sqlite3!.capi.sqlite3_js_db_export(conn.pointer!)));
    },
    async replaceDatabase(bytes: Uint8Array) {
      const conn = requireDb();
      finalizeStatements();
      conn.close();
      db = undefined;
      if (pool && info?.mode === 'opfs') {
        const usedPool = pool;
        let importError: unknown;
        try {
          // Closing checkpointed the WAL and removed it; make sure none is left to replay into the new file.
          unlinkCompanions(usedPool, `/${filename}`);
          await usedPool.importDb(`/${filename}`, bytes);
        } catch (error) {
          importError = error;
        }
        // Reopen whatever the file now holds, whether the import worked or not.
        db = new usedPool.OpfsSAHPoolDb(`/${filename}`) as unknown as OoDb;
        configure(db, 'opfs');
        if (importError) throw new StoreError('OPEN_FAILED', `The database could not be replaced: ${(importError as Error).message}`, { cause: importError });
        return;
      }
      db = openMemory(sqlite3!, bytes);
      configure(db, 'memory');
      if (info?.mode === 'indexeddb') {
        savedChanges = -1;
        await flush();
      }
    },
    async close() {
      if (opening) await opening.catch(() => undefined);
      if (!db) return;
      await flush().catch((error: unknown) => logger.warn(`The last changes could not be saved to IndexedDB: ${(error as Error)?.message ?? error}`));
      finalizeStatements();
      db.close();
      db = undefined;
      info = undefined;
      depth.value = 0;
      if (pool) {
        pool.pauseVfs();
        pool = undefined;
      }
    },
    async deleteDatabase() {
      if (info?.mode === 'indexeddb') {
        finalizeStatements();
        db?.close();
        db = undefined;
        info = undefined;
        depth.value = 0;
        await saving.catch(() => undefined);
        await deleteSnapshot(snapshotKey);
        return;
      }
      const usedPool = pool;
      const name = info?.filename;
      if (db && usedPool && name) {
        finalizeStatements();
        db.close();
        db = undefined;
        info = undefined;
        usedPool.unlink(`/${name}`);
        // Its WAL (and a journal from before decision 0115) go with it.
        unlinkCompanions(usedPool, `/${name}`);
        usedPool.pauseVfs();
        pool = undefined;
        return;
      }
      await store.close();
    },
  };
  return store;
}

/** An in-memory database, empty or holding a copy of `bytes` (a SQLite file). */
export function openMemory(s: Sqlite3, bytes?: Uint8Array): OoDb {
  const db = new s.oo1.DB(':memory:', 'c');
  if (!bytes) return db;
  // A file in WAL mode cannot be opened in memory: as a single file it is the same database in
  // rollback-journal mode. A subclass (Node's Buffer) is not a typed array SQLite's allocator knows:
  // copy it into a plain one.
  const single = asSingleFile(bytes);
  const copy = single.constructor === Uint8Array ? single : Uint8Array.from(single);
  const pointer = s.wasm.allocFromTypedArray(copy);
  const { capi } = s;
  const rc = capi.sqlite3_deserialize(
    db.pointer!,
    'main',
    pointer,
    copy.byteLength,
    copy.byteLength,
    capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE,
  );
  if (rc !== 0) {
    db.close();
    throw new StoreError('INVALID_DATABASE', `The file could not be loaded as a SQLite database (SQLite code ${rc}).`);
  }
  return db;
}

/**
 * Creates a store and opens it.
 * @example
 * const store = await openSqliteStore({ storage: 'memory' });
 */
export async function openSqliteStore(options: SqliteStoreOptions = {}): Promise<SqliteStore> {
  const store = createSqliteStore(options);
  await store.open();
  return store;
}
