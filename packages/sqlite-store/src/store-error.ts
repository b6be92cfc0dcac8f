/**
 * Why a store operation failed.
 * @example
 * if (error instanceof StoreError && error.code === 'BUSY') retryLater();
 */
export type StoreErrorCode =
  | 'NOT_INITIALIZED'
  | 'OPEN_FAILED'
  | 'BUSY'
  | 'MIGRATION_FAILED'
  | 'SCHEMA_TOO_NEW'
  | 'QUERY_FAILED'
  | 'CONSTRAINT'
  | 'STORAGE_FULL'
  | 'INVALID_DATABASE';

/**
 * The one error class of `@otto/sqlite-store`: a string code, a message that says what failed and
 * what to do, and the underlying `cause`.
 * @example
 * try { store.all('SELECT 1'); } catch (e) { if (e instanceof StoreError && e.code === 'NOT_INITIALIZED') await store.open(); }
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Maps a SQLite result code (from sqlite-wasm's SQLite3Error) to a store error code. */
export function codeForSqliteError(error: unknown): StoreErrorCode {
  const rc = (error as { resultCode?: number } | null)?.resultCode;
  if (typeof rc !== 'number') return 'QUERY_FAILED';
  const primary = rc & 0xff;
  if (primary === 19) return 'CONSTRAINT'; // SQLITE_CONSTRAINT
  if (primary === 13) return 'STORAGE_FULL'; // SQLITE_FULL
  if (primary === 5 || primary === 6) return 'BUSY'; // SQLITE_BUSY, SQLITE_LOCKED
  if (primary === 11 || primary === 26) return 'INVALID_DATABASE'; // SQLITE_CORRUPT, SQLITE_NOTADB
  return 'QUERY_FAILED';
}

/**
 * Runs one driver call, turning what the driver throws into a StoreError with a code (from
 * `codeFor`) and the statement it was running.
 * @example
 * const rows = runSql(sql, () => stmt.all(), codeForSqliteError);
 */
export function runSql<T>(sql: string, fn: () => T, codeFor: (error: unknown) => StoreErrorCode): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof StoreError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new StoreError(codeFor(error), `SQL failed: ${message} (in: ${sql.slice(0, 120)})`, { cause: error });
  }
}

/** The error for a store used before `open()` or after `close()`. */
export function notInitialized(): StoreError {
  return new StoreError('NOT_INITIALIZED', 'Driver not initialized: call open() before using the store.');
}
