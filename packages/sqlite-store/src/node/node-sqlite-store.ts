import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { runMigrations } from '../migrate';
import { StoreError, notInitialized, runSql, type StoreErrorCode } from '../store-error';
import { runTransaction, type TransactionDepth } from '../transaction';
import type { BindParams, Migration, MigrationResult, RunResult, SqliteStore, SqlValue, StoreInfo } from '../types';

type Connection = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement<unknown[], unknown>;

const maxCachedStatements = 200;

/**
 * Options of `createNodeSqliteStore`.
 * @example
 * const options: NodeSqliteStoreOptions = { filename: './otto.sqlite', busyTimeoutMs: 10_000 };
 */
export interface NodeSqliteStoreOptions {
  /**
   * Path of the SQLite file on disk, created when missing; `:memory:` keeps the data in memory.
   * @example './otto.sqlite'
   */
  filename: string;
  /**
   * Milliseconds a statement waits for another process's lock before it fails with BUSY.
   * @default 5000
   */
  busyTimeoutMs?: number;
}

/**
 * Creates a store on a SQLite file through the native `better-sqlite3` driver (an optional peer
 * dependency: `npm install better-sqlite3`), with the same `SqliteStore` interface, migrations,
 * transactions and `StoreError` codes as the WASM store. Call `open()` before anything else.
 * @example
 * import { createNodeSqliteStore } from '@otto/sqlite-store/node';
 * const store = createNodeSqliteStore({ filename: './otto.sqlite' });
 * await store.open(); // { mode: 'file', filename: '/abs/path/otto.sqlite', … }
 * store.exec('CREATE TABLE IF NOT EXISTS notes (text TEXT)');
 */
export function createNodeSqliteStore(options: NodeSqliteStoreOptions): SqliteStore {
  const inMemory = options.filename === ':memory:' || options.filename === '';
  let db: Connection | undefined;
  let info: StoreInfo | undefined;
  let opening: Promise<StoreInfo> | undefined;
  const depth: TransactionDepth = { value: 0 };
  const statements = new Map<string, Statement>();

  function requireDb(): Connection {
    if (!db) throw notInitialized();
    return db;
  }

  function wrap<T>(sql: string, fn: () => T): T {
    return runSql(sql, fn, codeForNativeError);
  }

  function statement(sql: string): Statement {
    const conn = requireDb();
    let stmt = statements.get(sql);
    if (!stmt) {
      if (statements.size >= maxCachedStatements) statements.clear();
      stmt = conn.prepare(sql);
      statements.set(sql, stmt);
    }
    return stmt;
  }

  const store: SqliteStore = {
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
          const Driver = await loadDriver();
          const filename = inMemory ? ':memory:' : resolve(options.filename);
          const conn = connect(Driver, filename, options.busyTimeoutMs ?? 5000);
          try {
            conn.pragma('foreign_keys = ON');
            // WAL lets readers run while a write is in progress; a file store only.
            if (!inMemory) conn.pragma('journal_mode = WAL');
          } catch (error) {
            conn.close();
            throw error;
          }
          db = conn;
          info = {
            mode: inMemory ? 'memory' : 'file',
            filename,
            sqliteVersion: String((conn.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v),
            journalMode: String(conn.pragma('journal_mode', { simple: true })),
          };
          return info;
        } catch (error) {
          if (error instanceof StoreError) throw error;
          const code = codeForNativeError(error);
          throw new StoreError(
            code === 'QUERY_FAILED' ? 'OPEN_FAILED' : code,
            `Failed to open the database ${options.filename}: ${(error as Error)?.message ?? error}`,
            { cause: error },
          );
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
      return wrap(sql, () => {
        const result = statement(sql).run(...toArgs(params));
        return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
      });
    },
    all<T>(sql: string, params?: BindParams): T[] {
      return wrap(sql, () => {
        const stmt = statement(sql);
        if (!stmt.reader) {
          stmt.run(...toArgs(params));
          return [];
        }
        return stmt.all(...toArgs(params)) as T[];
      });
    },
    get<T>(sql: string, params?: BindParams): T | undefined {
      return wrap(sql, () => {
        const stmt = statement(sql);
        if (!stmt.reader) {
          stmt.run(...toArgs(params));
          return undefined;
        }
        return stmt.get(...toArgs(params)) as T | undefined;
      });
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
      return Number(requireDb().pragma('user_version', { simple: true }) ?? 0);
    },
    exportDatabase() {
      const bytes = wrap('export', () => requireDb().serialize());
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async close() {
      if (opening) await opening.catch(() => undefined);
      if (!db) return;
      statements.clear();
      db.close();
      db = undefined;
      info = undefined;
      depth.value = 0;
    },
    async deleteDatabase() {
      const file = info && !inMemory ? info.filename : undefined;
      await store.close();
      if (file) {
        await Promise.all(['', '-wal', '-shm', '-journal'].map((suffix) => rm(`${file}${suffix}`, { force: true })));
      }
    },
  };
  return store;
}

/**
 * Creates a store on a SQLite file and opens it.
 * @example
 * const store = await openNodeSqliteStore({ filename: './otto.sqlite' });
 */
export async function openNodeSqliteStore(options: NodeSqliteStoreOptions): Promise<SqliteStore> {
  const store = createNodeSqliteStore(options);
  await store.open();
  return store;
}

type DriverConstructor = new (filename: string, options?: BetterSqlite3.Options) => Connection;

async function loadDriver(): Promise<DriverConstructor> {
  try {
    const module = (await import('better-sqlite3')) as { default: DriverConstructor };
    return module.default;
  } catch (error) {
    throw new StoreError(
      'OPEN_FAILED',
      'Failed to open the database: the native driver better-sqlite3 is not installed. Run `npm install better-sqlite3` next to @otto/sqlite-store.',
      { cause: error },
    );
  }
}

/** Opens a connection; a driver whose native part was never built says so in words. */
function connect(Driver: DriverConstructor, filename: string, timeout: number): Connection {
  try {
    return new Driver(filename, { timeout });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/bindings file|better_sqlite3\.node|NODE_MODULE_VERSION|invalid ELF|was compiled against/i.test(message)) {
      throw new StoreError(
        'OPEN_FAILED',
        'Failed to open the database: the native driver better-sqlite3 is installed but not built for this Node.js. ' +
          'Build it with `npm rebuild better-sqlite3` where it is installed (it needs a C++ compiler and Python when no prebuilt binary can be downloaded); in the Otto repository `npm test` builds it.',
        { cause: error },
      );
    }
    throw error;
  }
}

/** Binds like the WASM store: an array is positional; object keys may carry their `:`, `$` or `@` prefix. */
function toArgs(params: BindParams | undefined): unknown[] {
  if (params === undefined) return [];
  if (Array.isArray(params)) return (params as readonly SqlValue[]).map(toNative);
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params as Record<string, SqlValue>)) {
    named[key.replace(/^[:$@]/, '')] = toNative(value);
  }
  return [named];
}

function toNative(value: SqlValue): unknown {
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) {
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  return value;
}

/** Maps better-sqlite3's `SqliteError.code` (`SQLITE_CONSTRAINT_NOTNULL`, …) to a store error code. */
function codeForNativeError(error: unknown): StoreErrorCode {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'QUERY_FAILED';
  if (code.startsWith('SQLITE_CONSTRAINT')) return 'CONSTRAINT';
  if (code.startsWith('SQLITE_FULL')) return 'STORAGE_FULL';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'BUSY';
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) return 'INVALID_DATABASE';
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM')) {
    return 'OPEN_FAILED';
  }
  return 'QUERY_FAILED';
}
