import type { UntrustedOptions } from './guard-connection';

/**
 * A value SQLite can store or return.
 * @example
 * const row: SqlValue[] = ['Ada', 42, null, new Uint8Array([1, 2])];
 */
export type SqlValue = string | number | bigint | null | Uint8Array;

/**
 * Positional (`?`) or named (`:name`, `$name`, `@name`) statement parameters; named keys carry
 * their prefix.
 * @example
 * store.run('UPDATE notes SET text = ? WHERE id = ?', ['hi', 1]);
 * store.run('UPDATE notes SET text = :text WHERE id = :id', { ':text': 'hi', ':id': 1 });
 */
export type BindParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

/**
 * What a write statement did.
 * @example
 * const { changes, lastInsertRowid } = store.run('INSERT INTO notes (text) VALUES (?)', ['hi']);
 */
export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
  /** Rowid of the last inserted row on this connection. */
  lastInsertRowid: number;
}

/**
 * Where the data lives: `opfs` survives reloads (browser), `indexeddb` is memory with a snapshot of
 * the whole file saved in IndexedDB after every write (`flush`) and loaded at start (a browser
 * without OPFS), `file` is a SQLite file on disk (Node, `@otto/sqlite-store/node`), `memory` is
 * gone when the page or process closes.
 * @example
 * if (store.info.mode === 'memory') showBanner('Changes will not be kept.');
 */
export type StorageMode = 'opfs' | 'indexeddb' | 'memory' | 'file';

/**
 * The synchronous SQL surface every handler and migration uses. Any driver can implement it
 * (SQLite WASM here; a native driver on a server).
 * @example
 * function countNotes(db: Database): number {
 *   return db.get<{ n: number }>('SELECT count(*) AS n FROM notes')?.n ?? 0;
 * }
 */
export interface Database {
  /** Runs one or more statements without parameters (schema changes, pragmas). */
  exec(sql: string): void;
  /** Runs one statement with parameters and reports what it changed. */
  run(sql: string, params?: BindParams): RunResult;
  /** All rows of a query, as objects keyed by column name. */
  all<T = Record<string, SqlValue>>(sql: string, params?: BindParams): T[];
  /** The first row of a query, or `undefined`. */
  get<T = Record<string, SqlValue>>(sql: string, params?: BindParams): T | undefined;
  /**
   * Runs `fn` in a transaction: committed when it returns, rolled back when it throws. Nested
   * calls become savepoints. `fn` must be synchronous.
   */
  transaction<T>(fn: () => T): T;
}

/**
 * One numbered schema step. Versions run in order 1, 2, 3… and are tracked in `PRAGMA user_version`.
 * Never edit a released migration: add the next one.
 * @example
 * const migrations: Migration[] = [
 *   { version: 1, name: 'notes', up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)' },
 *   { version: 2, name: 'note tags', up: (db) => db.exec('ALTER TABLE notes ADD COLUMN tag TEXT') },
 * ];
 */
export interface Migration {
  version: number;
  name: string;
  /** SQL to execute, or a function that changes the schema through the database. */
  up: string | ((db: Database) => void);
}

/**
 * What `migrate` did.
 * @example
 * const { from, to, applied } = store.migrate(migrations); // { from: 0, to: 2, applied: [1, 2] }
 */
export interface MigrationResult {
  from: number;
  to: number;
  applied: number[];
}

/**
 * Facts about an open store.
 * @example
 * const { mode, filename, sqliteVersion, fallbackReason } = await store.open();
 */
export interface StoreInfo {
  mode: StorageMode;
  filename: string;
  /** Why the store is in memory when persistence was asked for; undefined otherwise. */
  fallbackReason?: string;
  sqliteVersion: string;
  /** SQLite's journal mode for this database: `wal` on OPFS, `memory` for a database in memory. */
  journalMode: string;
}

/**
 * Where messages from the store go.
 * @example
 * const store = createSqliteStore({ logger: { warn: (message) => myLog.warn(message) } });
 */
export interface StoreLogger {
  warn(message: string, ...details: unknown[]): void;
  info?(message: string, ...details: unknown[]): void;
}

/**
 * Options of `createSqliteStore`.
 * @example
 * const options: SqliteStoreOptions = { storage: 'opfs', filename: 'app.sqlite3' };
 */
export interface SqliteStoreOptions {
  /**
   * Database file name in OPFS.
   * @default 'otto.sqlite3'
   */
  filename?: string;
  /**
   * `auto` uses OPFS (opfs-sahpool VFS) when running in a dedicated worker with OPFS, and memory
   * otherwise; `opfs` requires OPFS and falls back to memory (with a warning) only when OPFS is
   * unavailable; `memory` never persists.
   * @default 'auto'
   */
  storage?: 'auto' | 'opfs' | 'memory';
  /**
   * OPFS directory that holds the sahpool VFS files. Only one connection may use it at a time.
   * @default '.otto'
   */
  opfsDirectory?: string;
  /**
   * For `storage: 'memory'`: open a copy of these SQLite file bytes instead of an empty database.
   */
  initialData?: Uint8Array;
  /**
   * Where OPFS is missing but IndexedDB exists (a dedicated worker of such a browser), keep the
   * database in memory with a snapshot of the whole file in IndexedDB (mode `indexeddb`): loaded at
   * `open`, saved by `flush` after writes. `false`: plain memory there.
   * @default true
   */
  snapshotFallback?: boolean;
  /**
   * What a database that does not exist yet starts as: the bytes of a SQLite file (made ahead of
   * time, say), put in place before the first open: imported into OPFS, or opened as a copy in
   * memory. Called only when there is no database file; resolving undefined starts it empty.
   * @example
   * createSqliteStore({ newDatabase: () => fetch('/first.sqlite3').then(async (r) => new Uint8Array(await r.arrayBuffer())) });
   */
  newDatabase?: () => Promise<Uint8Array | undefined>;
  /**
   * Put this SQLite file (a `File` a person chose, say) in place of the database file before it is
   * opened, read a slice at a time into OPFS: a file of any size, never held whole in memory. Where
   * the store is in memory its bytes are read whole. A file OPFS refuses fails the open in words
   * (`INVALID_DATABASE`, `STORAGE_FULL`); the store never falls back to memory for it.
   * @example
   * openSqliteStore({ storage: 'opfs', opfsDirectory: '.check', filename: 'check.sqlite3', replaceWith: file, untrusted: { deadline } });
   */
  replaceWith?: Blob;
  /**
   * Treat the database as untrusted (a file a person chose, checked before a restore): SQLite's
   * defensive settings, the file's triggers and views off unless asked, and a deadline after which
   * every statement is interrupted. Decision 0130.
   * @example
   * openSqliteStore({ storage: 'memory', initialData: bytes, untrusted: { deadline: Date.now() + 20_000 } });
   */
  untrusted?: UntrustedOptions;
  /**
   * Where warnings go (the persistence fallback warning among them).
   * @default console
   */
  logger?: StoreLogger;
}

/**
 * A SQLite database that must be opened before use, then migrated, queried and closed.
 * @example
 * const store: SqliteStore = createSqliteStore({ storage: 'memory' });
 * await store.open();
 * store.migrate(migrations);
 * await store.close();
 */
export interface SqliteStore extends Database {
  readonly isOpen: boolean;
  /** Facts about the open store; throws 'Driver not initialized' before `open`. */
  readonly info: StoreInfo;
  /** Opens the database; resolves once it can be queried. Calling it again returns the same info. */
  open(): Promise<StoreInfo>;
  /** Applies pending migrations in order, each in its own transaction. */
  migrate(migrations: readonly Migration[]): MigrationResult;
  /** The schema version (`PRAGMA user_version`). */
  userVersion(): number;
  /** The whole database as the bytes of a SQLite file. */
  exportDatabase(): Uint8Array;
  /**
   * Replaces the whole database with a SQLite file (a restore), keeping the store open: its bytes,
   * or a Blob (on OPFS read a slice at a time, so a file of any size fits). Check it first
   * (`inspectDatabaseBytes`, or a store opened with `replaceWith` and `untrusted`). Drivers that
   * cannot do this omit it.
   */
  replaceDatabase?(source: Uint8Array | Blob): Promise<void>;
  /**
   * The database file's bytes exactly as stored, without opening or checking them (OPFS only):
   * for a database that cannot be opened. Closes the store first if it is open. Resolves undefined
   * when there is no file. Drivers without a file of their own omit it.
   */
  readDatabaseFile?(): Promise<Uint8Array | undefined>;
  /**
   * Removes the database file and its WAL (or journal) without opening them (OPFS only), and puts
   * `source` (a SQLite file's bytes or a Blob, checked first) in its place when given. Closes the
   * store first if it is open; call `open()` afterwards to use the new file.
   */
  replaceDatabaseFile?(source?: Uint8Array | Blob): Promise<void>;
  /**
   * In `indexeddb` mode, saves a snapshot of the database to IndexedDB if anything changed since
   * the last one, and resolves once IndexedDB committed it (call it after each write, before saying
   * it is saved). Elsewhere it does nothing. Drivers that keep their own file omit it.
   */
  flush?(): Promise<void>;
  /** Closes the connection and releases OPFS handles. Safe to call twice. */
  close(): Promise<void>;
  /** Closes the store and deletes its file (OPFS) or contents (memory). */
  deleteDatabase(): Promise<void>;
}
