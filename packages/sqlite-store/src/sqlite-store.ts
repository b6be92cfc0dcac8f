import { StoreError, notInitialized } from './store-error';
import { runTransaction, type TransactionDepth } from './transaction';
import { runMigrations } from './migrate';
import { loadSqlite, opfsAvailable, type Sqlite3 } from './sqlite-module';
import { acquirePool, defaultOpfsDirectory, importInto, unlinkCompanions, type PoolUtil } from './opfs-pool';
import { asSingleFile, configure, openMemory, type OoDb, type OoStmt } from './sqlite-connection';
import { persistentOpener } from './open-persistent';
import { guardConnection } from './guard-connection';
import { createStatementCache, wrap } from './statements';
import { deleteSnapshot, writeSnapshot } from './indexeddb-snapshot';
import type {
  BindParams,
  Migration,
  MigrationResult,
  RunResult,
  SqliteStore,
  SqliteStoreOptions,
  StoreInfo,
} from './types';

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
  const snapshotKey = `${options.opfsDirectory ?? defaultOpfsDirectory}/${filename}`;
  /** In `indexeddb` mode: sqlite3_total_changes at the last saved snapshot (-1: save at the next flush). */
  let savedChanges = -1;
  let saving: Promise<void> = Promise.resolve();

  function requireDb(): OoDb {
    if (!db) throw notInitialized();
    return db;
  }

  const { finalizeStatements, withStatement } = createStatementCache(requireDb);
  const openPersistent = persistentOpener({
    options,
    storage,
    logger,
    filename,
    snapshotKey,
    setPool: (acquired) => {
      pool = acquired;
    },
  });

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
    async replaceDatabaseFile(source?: Uint8Array | Blob) {
      const usedPool = await rawPool();
      try {
        usedPool.unlink(`/${filename}`);
        unlinkCompanions(usedPool, `/${filename}`);
        if (source) await importInto(usedPool, `/${filename}`, source);
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
              ? { db: openMemory(sqlite3, options.initialData ?? (options.replaceWith ? new Uint8Array(await options.replaceWith.arrayBuffer()) : await options.newDatabase?.())) }
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
        const read = rowReader(sqlite3!, stmt);
        while (stmt.step()) rows.push(read() as T);
        return rows;
      });
    },
    get<T>(sql: string, params?: BindParams): T | undefined {
      return withStatement(sql, params, (stmt) => (stmt.step() ? (rowReader(sqlite3!, stmt)() as T) : undefined));
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
      return wrap('export', () => {
        // On OPFS the pool's file is read straight into a JS buffer once a checkpoint has moved the
        // WAL's pages into it: SQLite's serialize copies the whole database into the WASM heap,
        // which a database of a million customers (about 1.6 GB) does not fit (SQLITE_NOMEM).
        if (pool && info?.mode === 'opfs') {
          let checkpoint: number[] = [];
          try {
            checkpoint = (conn.selectArray('PRAGMA wal_checkpoint(TRUNCATE)') ?? []) as number[];
          } catch {
            // Inside a transaction, or beside an unfinished statement, SQLite refuses the
            // checkpoint: serialize reads the WAL's pages as they are.
          }
          const [busy, log, moved] = checkpoint;
          // -1: not in WAL mode, nothing to move. Anything left in the WAL: serialize, which reads it.
          if (busy === 0 && (log === -1 || log === moved)) {
            // Typed as a promise, answered at once in this SQLite (3.50); a promise: serialize.
            const file: unknown = pool.exportFile(`/${filename}`);
            if (file instanceof Uint8Array) {
              // A fresh buffer: the header's WAL marks become rollback-journal ones in place (no
              // second copy of a database that may be over a gigabyte).
              if (file.byteLength >= 20 && file[18] === 2 && file[19] === 2) file[18] = file[19] = 1;
              return file;
            }
          }
        }
        // The whole database, the WAL's pages included, as one file that opens anywhere.
        return asSingleFile(sqlite3!.capi.sqlite3_js_db_export(conn.pointer!));
      });
    },
    async replaceDatabase(source: Uint8Array | Blob) {
      const onFile = Boolean(pool) && info?.mode === 'opfs';
      // A database in memory takes the bytes whole: read them before closing the one it replaces.
      const bytes = source instanceof Uint8Array || onFile ? undefined : new Uint8Array(await source.arrayBuffer());
      const conn = requireDb();
      finalizeStatements();
      conn.close();
      db = undefined;
      if (onFile && pool) {
        const usedPool = pool;
        let importError: unknown;
        try {
          // Closing checkpointed the WAL and removed it; make sure none is left to replay into the new file.
          await importInto(usedPool, `/${filename}`, source);
        } catch (error) {
          importError = error;
        }
        // Reopen whatever the file now holds, whether the import worked or not.
        db = new usedPool.OpfsSAHPoolDb(`/${filename}`) as unknown as OoDb;
        configure(db, 'opfs');
        if (importError) throw new StoreError('OPEN_FAILED', `The database could not be replaced: ${(importError as Error).message}`, { cause: importError });
        return;
      }
      db = openMemory(sqlite3!, bytes ?? (source as Uint8Array));
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

/**
 * Reads the current row of `stmt` as an object keyed by column name. SQLite WASM's `stmt.get({})`
 * reads an integer as a 64-bit BigInt and converts it (an allocation per cell); an integer whose
 * double is exact (within 2^53: ids, epoch milliseconds, cents) is read as a double here, the
 * names are asked once per statement, and anything else (a larger integer, a blob) goes through
 * `stmt.get`. The values are the same as `stmt.get({})`'s.
 */
function rowReader(sqlite3: Sqlite3, stmt: OoStmt): () => Record<string, unknown> {
  const { capi } = sqlite3;
  const names = stmt.getColumnNames([]);
  const pointer = stmt.pointer as number;
  return () => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const type = capi.sqlite3_column_type(pointer, i);
      let value: unknown;
      if (type === capi.SQLITE_NULL) value = null;
      else if (type === capi.SQLITE_TEXT) value = capi.sqlite3_column_text(pointer, i);
      else if (type === capi.SQLITE_FLOAT) value = capi.sqlite3_column_double(pointer, i);
      else if (type === capi.SQLITE_INTEGER) {
        const double = capi.sqlite3_column_double(pointer, i);
        value = Number.isSafeInteger(double) ? double : stmt.get(i);
      } else value = stmt.get(i);
      row[names[i] as string] = value;
    }
    return row;
  };
}
