// One SQLite connection: its per-connection settings, and an in-memory database opened from a file's bytes.
import { StoreError } from './store-error';
import type { Sqlite3 } from './sqlite-module';

/** A connection of SQLite's object-oriented API (oo1). */
export type OoDb = InstanceType<Sqlite3['oo1']['DB']>;
/** A prepared statement of such a connection. */
export type OoStmt = ReturnType<OoDb['prepare']>;

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
export function configure(conn: OoDb, mode: 'opfs' | 'memory' | 'indexeddb'): string {
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
 * `bytes` marked as a rollback-journal database (header bytes 18-19 = 1), for a file that travels
 * or opens alone: a copy when they said WAL (2), else the same bytes.
 */
export function asSingleFile(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength < 20 || bytes[18] !== 2 || bytes[19] !== 2) return bytes;
  // Uint8Array.from, not slice: a Node Buffer's slice shares the caller's memory.
  const copy = Uint8Array.from(bytes);
  copy[18] = copy[19] = 1;
  return copy;
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
