import type { Sqlite3 } from './sqlite-module';
import { StoreError } from './store-error';

/**
 * How a store treats a database file it does not trust yet (a backup a person chose): SQLite's
 * defensive settings, and a deadline after which every statement is stopped.
 * @example
 * const options: UntrustedOptions = { deadline: Date.now() + 20_000, runSchemaCode: false };
 */
export interface UntrustedOptions {
  /** `Date.now()` after which any running statement is interrupted (it fails; `wasInterrupted` tells why). */
  deadline: number;
  /**
   * Let the file's triggers and views run. Off while its schema is not yet known to be the app's:
   * then no code the file carries runs at all.
   * @default false
   */
  runSchemaCode?: boolean;
  /**
   * SQLite's page cache for this connection, in bytes: a check reads every page of a file, and an
   * index check looks rows up in random order, so a file much larger than the default 2 MB cache
   * is read many times over. @default SQLite's own (2 MB)
   */
  pageCacheBytes?: number;
}

/** SQLite virtual machine steps between two looks at the clock. */
const progressSteps = 1000;
/** The longest string or blob an untrusted file may hold (SQLITE_LIMIT_LENGTH): no value of Otto's nears it. */
const maxValueBytes = 64 * 1024 * 1024;
const SQLITE_LIMIT_LENGTH = 0;
const SQLITE_INTERRUPT = 9;

/**
 * Puts a connection in the state for an untrusted file (decision 0130): defensive (no writes to
 * the schema or shadow tables through SQL), functions of the schema only when innocuous
 * (`trusted_schema = OFF`), no extension loading, triggers and views off unless asked, a cap on
 * value sizes, and a progress handler that interrupts anything running past the deadline, so a
 * hostile file (an endless recursive view, say) cannot hang the thread that checks it.
 */
export function guardConnection(s: Sqlite3, pointer: number, options: UntrustedOptions): void {
  const { capi } = s;
  const set = (op: Parameters<typeof capi.sqlite3_db_config>[1], on: boolean) => {
    const rc = capi.sqlite3_db_config(pointer, op, on ? 1 : 0, 0);
    if (rc !== 0) throw new StoreError('OPEN_FAILED', `SQLite refused a defensive setting (${op}, code ${rc}).`);
  };
  set(capi.SQLITE_DBCONFIG_DEFENSIVE, true);
  set(capi.SQLITE_DBCONFIG_TRUSTED_SCHEMA, false);
  set(capi.SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, false);
  set(capi.SQLITE_DBCONFIG_ENABLE_TRIGGER, options.runSchemaCode === true);
  set(capi.SQLITE_DBCONFIG_ENABLE_VIEW, options.runSchemaCode === true);
  capi.sqlite3_limit(pointer, SQLITE_LIMIT_LENGTH, maxValueBytes);
  if (options.pageCacheBytes) capi.sqlite3_exec(pointer, `PRAGMA cache_size = -${Math.ceil(options.pageCacheBytes / 1024)}`, 0, 0, 0);
  const { deadline } = options;
  capi.sqlite3_progress_handler(pointer, progressSteps, () => (Date.now() > deadline ? 1 : 0), 0);
}

/**
 * True when `error` (or what caused it) is SQLite's "interrupted": a deadline ran out.
 * @example
 * try { await inspectDatabaseBytes(bytes, { deadline: Date.now() + 5_000 }); } catch (error) { if (wasInterrupted(error)) showTooSlow(); }
 */
export function wasInterrupted(error: unknown): boolean {
  for (let e = error as { resultCode?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.resultCode === 'number' && (e.resultCode & 0xff) === SQLITE_INTERRUPT) return true;
  }
  return false;
}
