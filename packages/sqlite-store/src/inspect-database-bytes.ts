// Checks that a file's bytes are a healthy SQLite database (and what schema it holds) before anyone relies on them.
import { wasInterrupted } from './guard-connection';
import { createSqliteStore } from './sqlite-store';
import { StoreError } from './store-error';
import type { Database, SqliteStore } from './types';

/**
 * One row of a database's `sqlite_master`: a table, index, trigger or view, with the SQL that made
 * it (whitespace collapsed; `null` for what SQLite made itself, like the index of a UNIQUE column).
 * @example
 * const object: SchemaObject = { type: 'trigger', name: 'notes_ai', tableName: 'notes', sql: 'CREATE TRIGGER …' };
 */
export interface SchemaObject {
  type: string;
  name: string;
  tableName: string;
  sql: string | null;
}

/**
 * What a SQLite file holds, as `inspectDatabaseBytes` found it.
 * @example
 * const info: DatabaseFileInfo = await inspectDatabaseBytes(bytes); // { userVersion: 2, objects: ['customers', …], schema: […] }
 */
export interface DatabaseFileInfo {
  /** `PRAGMA user_version`: the schema version of the app that wrote it. */
  userVersion: number;
  /** Names of its tables, indexes, views and triggers (not SQLite's own). */
  objects: string[];
  /** Its whole schema, ordered by type then name, to compare with the app's own (`schemaOf`). */
  schema: SchemaObject[];
}

/**
 * Options of `inspectDatabaseBytes`.
 * @example
 * const options: InspectOptions = { maxBytes: 200 * 1024 * 1024, deadline: Date.now() + 20_000 };
 */
export interface InspectOptions {
  /** Files larger than this are refused before SQLite opens them. @default no limit */
  maxBytes?: number;
  /** `Date.now()` by which the inspection must be done; past it, it stops and refuses. @default 30 s from the call */
  deadline?: number;
}

const sqliteHeader = 'SQLite format 3\u0000';

/**
 * The schema of a database as rows of `sqlite_master`, ordered by type then name, with the SQL's
 * whitespace collapsed: two databases made by the same statements give equal lists.
 * @example
 * expect(schemaOf(restored)).toEqual(schemaOf(fresh));
 */
export function schemaOf(db: Database): SchemaObject[] {
  return db
    .all<SchemaObject>('SELECT type, name, tbl_name AS tableName, sql FROM sqlite_master ORDER BY type, name')
    .map((row) => ({ ...row, sql: row.sql === null ? null : row.sql.replace(/\s+/g, ' ').trim() }));
}

/**
 * Refuses, before SQLite sees it, a file larger than `maxBytes` or one that does not begin as a
 * SQLite file does (its bytes, or a Blob: only its first bytes are read). Throws StoreError
 * `INVALID_DATABASE` in words.
 * @example
 * await assertSqliteFile(file, { maxBytes: 2 * 1024 ** 3 });
 */
export async function assertSqliteFile(source: Uint8Array | Blob, options: Pick<InspectOptions, 'maxBytes'> = {}): Promise<void> {
  const size = source instanceof Uint8Array ? source.byteLength : source.size;
  if (options.maxBytes !== undefined && size > options.maxBytes) {
    throw new StoreError(
      'INVALID_DATABASE',
      `This file is ${megabytes(size)}, more than the ${megabytes(options.maxBytes)} a backup may be, so it was not opened. Nothing was changed.`,
    );
  }
  const start = source instanceof Uint8Array ? source.subarray(0, 16) : new Uint8Array(await source.slice(0, 16).arrayBuffer());
  if (size < 512 || new TextDecoder('latin1').decode(start) !== sqliteHeader) {
    throw new StoreError('INVALID_DATABASE', 'This file is not a SQLite database. Choose a backup that Otto saved.');
  }
}

/**
 * Checks that bytes are a healthy SQLite database before anyone relies on them: the size, the
 * SQLite file header, then `PRAGMA integrity_check` on a private in-memory copy opened untrusted
 * (defensive settings, none of the file's triggers or views run, stopped at the deadline). Throws
 * StoreError `INVALID_DATABASE` with words a person can act on.
 * @example
 * const { userVersion, schema } = await inspectDatabaseBytes(new Uint8Array(await file.arrayBuffer()), { maxBytes: 200e6 });
 */
export async function inspectDatabaseBytes(bytes: Uint8Array, options: InspectOptions = {}): Promise<DatabaseFileInfo> {
  await assertSqliteFile(bytes, options);
  const deadline = options.deadline ?? Date.now() + 30_000;
  const store = createSqliteStore({ storage: 'memory', initialData: bytes, logger: { warn: () => {} }, untrusted: { deadline } });
  try {
    return await inspectDatabase(store);
  } finally {
    await store.close();
  }
}

/**
 * The checks of `inspectDatabaseBytes` on a store created with `untrusted` and not opened yet (a
 * file put in OPFS with `replaceWith`, say, so that a file of any size is checked without being
 * held in memory): opens it, runs `PRAGMA integrity_check`, reads its schema. Throws StoreError
 * `INVALID_DATABASE` in words; the caller closes the store.
 * @example
 * const check = createSqliteStore({ storage: 'opfs', opfsDirectory: '.check', replaceWith: file, untrusted: { deadline } });
 * try { const { userVersion } = await inspectDatabase(check); } finally { await check.deleteDatabase(); }
 */
export async function inspectDatabase(store: SqliteStore): Promise<DatabaseFileInfo> {
  try {
    await store.open();
    let problems: string[];
    try {
      problems = store.all<{ integrity_check: string }>('PRAGMA integrity_check').map((r) => r.integrity_check);
    } catch (error) {
      if (wasInterrupted(error)) throw error;
      problems = [(error as Error).message.replace(/^SQL failed: /, '').replace(/ \(in: .*\)$/, '')];
    }
    if (problems.join() !== 'ok') {
      throw new StoreError(
        'INVALID_DATABASE',
        `This database is damaged, so it cannot be used (SQLite found: ${problems.slice(0, 2).join('; ')}). Nothing was changed.`,
      );
    }
    const schema = schemaOf(store);
    const objects = schema.filter((o) => !o.name.startsWith('sqlite_')).map((o) => o.name);
    return { userVersion: store.userVersion(), objects, schema };
  } catch (error) {
    if (error instanceof StoreError && error.code === 'INVALID_DATABASE' && error.message.includes('Nothing was changed')) throw error;
    if (error instanceof StoreError && error.code === 'STORAGE_FULL') throw error;
    if (wasInterrupted(error)) throw tooSlow(error);
    // Opening a file in OPFS reads (and sets) its journal mode first: damage found there is damage.
    const malformed = /SQLITE_(CORRUPT|NOTADB)\b[^]*: (.*)$/.exec((error as Error).message ?? '');
    if (malformed) {
      throw new StoreError('INVALID_DATABASE', `This database is damaged, so it cannot be used (SQLite found: ${malformed[2]}). Nothing was changed.`, { cause: error });
    }
    throw new StoreError('INVALID_DATABASE', `This file could not be read as a database (${(error as Error).message}). Nothing was changed.`, {
      cause: error,
    });
  }
}

/** The refusal of a check that ran past its deadline. */
function tooSlow(cause: unknown): StoreError {
  return new StoreError(
    'INVALID_DATABASE',
    'Checking this file took longer than a check may take, so it was stopped: it is not a backup Otto can use as it is. Nothing was changed.',
    { cause },
  );
}

function megabytes(n: number): string {
  return `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
}
