// Opens a store's database where it lasts (OPFS, else an IndexedDB snapshot), falling back to memory with a warning.
import { StoreError } from './store-error';
import { isBusyError, isQuotaError, opfsAvailable, type Sqlite3 } from './sqlite-module';
import { acquirePool, defaultOpfsDirectory, importInto, unlinkCompanions, type PoolUtil } from './opfs-pool';
import { openMemory, type OoDb } from './sqlite-connection';
import { indexedDbAvailable, readSnapshot } from './indexeddb-snapshot';
import type { SqliteStoreOptions, StoreLogger } from './types';

/** What a store opens with; `setPool` keeps the sahpool VFS it acquired, for the store's later work on the file. */
export interface PersistentOpenContext {
  options: SqliteStoreOptions;
  storage: NonNullable<SqliteStoreOptions['storage']>;
  logger: StoreLogger;
  filename: string;
  snapshotKey: string;
  setPool: (pool: PoolUtil) => void;
}

/** The store's `openPersistent(s)`: its database, why it is in memory if it is, and whether it is an IndexedDB snapshot. */
export function persistentOpener({ options, storage, logger, filename, snapshotKey, setPool }: PersistentOpenContext) {
  /** What the database starts as when it is not in OPFS: the file it replaces, else a new database's. */
  const startingBytes = async () => (options.replaceWith ? new Uint8Array(await options.replaceWith.arrayBuffer()) : await options.newDatabase?.());

  async function openPersistent(s: Sqlite3): Promise<{ db: OoDb; fallbackReason?: string; snapshot?: boolean }> {
    const available = opfsAvailable();
    if (!available.ok) {
      if (storage === 'auto' && typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'undefined') {
        return { db: openMemory(s, await startingBytes()) };
      }
      // No OPFS, but IndexedDB: memory, with a copy of the file kept there after every write.
      if (options.snapshotFallback !== false && indexedDbAvailable()) {
        try {
          // No snapshot yet: the database starts as a new one would (newDatabase), else empty.
          const bytes = options.replaceWith ? await startingBytes() : ((await readSnapshot(snapshotKey)) ?? (await options.newDatabase?.()));
          logger.info?.(`No OPFS here (${available.reason}); keeping the database as a snapshot in IndexedDB.`);
          return { db: openMemory(s, bytes), fallbackReason: available.reason, snapshot: true };
        } catch (error) {
          return fallBack(s, `${available.reason}; IndexedDB failed too (${(error as Error)?.message ?? error})`, await startingBytes());
        }
      }
      return fallBack(s, available.reason, await startingBytes());
    }
    try {
      const pool = await acquirePool(s, options.opfsDirectory ?? defaultOpfsDirectory);
      setPool(pool);
      if (options.replaceWith) {
        await replaceFile(pool, options.replaceWith);
      } else if (options.newDatabase && !pool.getFileNames().includes(`/${filename}`)) {
        const bytes = await options.newDatabase();
        if (bytes) await importInto(pool, `/${filename}`, bytes);
        else unlinkCompanions(pool, `/${filename}`);
      }
      return { db: new pool.OpfsSAHPoolDb(`/${filename}`) as unknown as OoDb };
    } catch (error) {
      // A file put in place of the database was refused: say why (a check must not go on in memory).
      if (options.replaceWith && error instanceof StoreError) throw error;
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
      return fallBack(s, reason, await startingBytes().catch(() => undefined));
    }
  }

  /** Puts `source` in place of the file; a file that is refused or does not fit fails the open in words, never falls back to memory. */
  async function replaceFile(pool: PoolUtil, source: Blob): Promise<void> {
    pool.unlink(`/${filename}`);
    try {
      await importInto(pool, `/${filename}`, source);
    } catch (error) {
      if (isQuotaError(error)) {
        throw new StoreError('STORAGE_FULL', 'The file could not be copied into the browser\'s storage: there is no space left for it. Free some disk space, then try again.', {
          cause: error,
        });
      }
      throw new StoreError('INVALID_DATABASE', `This file could not be read as a SQLite database (${(error as Error)?.message ?? error}).`, { cause: error });
    }
  }

  function fallBack(s: Sqlite3, reason: string, bytes?: Uint8Array): { db: OoDb; fallbackReason: string } {
    logger.warn(
      `Persistence failed: ${reason}. Falling back to in-memory storage; changes will not be saved.`,
    );
    return { db: openMemory(s, bytes), fallbackReason: reason };
  }

  return openPersistent;
}
