// Checks that a file's bytes are a healthy SQLite database before anyone relies on them.
import { StoreError } from './store-error';
import { createSqliteStore } from './sqlite-store';

/**
 * What a SQLite file holds, as `inspectDatabaseBytes` found it.
 * @example
 * const info: DatabaseFileInfo = await inspectDatabaseBytes(bytes); // { userVersion: 2, objects: ['customers', …] }
 */
export interface DatabaseFileInfo {
  /** `PRAGMA user_version`: the schema version of the app that wrote it. */
  userVersion: number;
  /** Names of its tables, views and triggers. */
  objects: string[];
}

const sqliteHeader = 'SQLite format 3\u0000';

/**
 * Checks that bytes are a healthy SQLite database before anyone relies on them: the SQLite file
 * header, then `PRAGMA integrity_check` on a private in-memory copy. Throws StoreError
 * `INVALID_DATABASE` with words a person can act on.
 * @example
 * const { userVersion, objects } = await inspectDatabaseBytes(new Uint8Array(await file.arrayBuffer()));
 */
export async function inspectDatabaseBytes(bytes: Uint8Array): Promise<DatabaseFileInfo> {
  const header = new TextDecoder('latin1').decode(bytes.subarray(0, 16));
  if (bytes.byteLength < 512 || header !== sqliteHeader) {
    throw new StoreError('INVALID_DATABASE', 'This file is not a SQLite database. Choose a backup that Otto saved.');
  }
  const store = createSqliteStore({ storage: 'memory', initialData: bytes, logger: { warn: () => {} } });
  try {
    await store.open();
    let problems: string[];
    try {
      problems = store.all<{ integrity_check: string }>('PRAGMA integrity_check').map((r) => r.integrity_check);
    } catch (error) {
      problems = [(error as Error).message.replace(/^SQL failed: /, '').replace(/ \(in: .*\)$/, '')];
    }
    if (problems.join() !== 'ok') {
      throw new StoreError(
        'INVALID_DATABASE',
        `This database is damaged, so it cannot be used (SQLite found: ${problems.slice(0, 2).join('; ')}). Nothing was changed.`,
      );
    }
    const objects = store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").map((r) => r.name);
    return { userVersion: store.userVersion(), objects };
  } catch (error) {
    if (error instanceof StoreError && error.code === 'INVALID_DATABASE' && error.message.includes('Nothing was changed')) throw error;
    throw new StoreError(
      'INVALID_DATABASE',
      `This file could not be read as a database (${(error as Error).message}). Nothing was changed.`,
      { cause: error },
    );
  } finally {
    await store.close();
  }
}
