// The DB worker's operations on its database file (read, replace, restore a backup, delete), each followed by a reopen.
import { StoreError, keepFileAside, type SqliteStore } from '@otto/sqlite-store';
import { checkBackup } from '../database/check-backup';
import { createMockApi } from '../create-mock-api';
import type { Logger } from '../logger';
import type { MockApi } from '../types';
import type { createChangeBroadcast } from './change-channel';
import { errorMessage, type SetAsideFileInfo } from './protocol';
import type { ServeMockApiInWorkerOptions } from './types';

/** What the operations work with: the worker's own store factory, open and change broadcast. */
export interface DatabaseFileContext {
  newStore: (seed?: boolean) => SqliteStore;
  open: (seed?: boolean) => Promise<MockApi>;
  logger: Logger;
  extensions: NonNullable<ServeMockApiInWorkerOptions['extensions']>;
  changes: ReturnType<typeof createChangeBroadcast>;
  options: ServeMockApiInWorkerOptions;
}

/** The file operations of one DB worker; each resolves with the database opened afterwards. */
export function databaseFileOperations({ newStore, open, logger, extensions, changes, options }: DatabaseFileContext) {
  async function readFileOf(store: SqliteStore): Promise<Uint8Array | undefined> {
    if (!store.readDatabaseFile) throw new StoreError('OPEN_FAILED', 'This database has no file of its own to read.');
    return store.readDatabaseFile();
  }

  /** Keeps the file aside (when asked), puts `backup` or nothing in its place, and opens the result. */
  async function replaceFileAndReopen(backup: Blob | undefined, keepAside: boolean): Promise<{ api: MockApi; setAside?: SetAsideFileInfo }> {
    const store = newStore();
    if (!store.replaceDatabaseFile) throw new StoreError('OPEN_FAILED', 'This database has no file of its own to replace.');
    let setAside: SetAsideFileInfo | undefined;
    if (keepAside) {
      const old = await readFileOf(store);
      if (old && old.byteLength > 0) setAside = await keepFileAside(old);
    }
    await store.replaceDatabaseFile(backup);
    logger.info(backup ? 'Put a backup in place of the database file.' : 'Removed the database file; starting a fresh one.');
    return { api: await open(!backup), ...(setAside ? { setAside } : {}) };
  }

  /** The API over a database that is there already (restored or put back): never seeded, on the worker's clock. */
  const reopen = (store: MockApi['store']) =>
    createMockApi({ extensions, store, logger, seed: false, changeLog: false, onChange: changes.publish, ...(options.now ? { now: options.now } : {}) });

  /**
   * Checks `backup` (in a scratch file, a slice at a time), then puts it in place of the database
   * (again a slice at a time) and opens it; the current data is kept in memory until then and put
   * back if that fails.
   */
  async function restoreAndReopen(api: MockApi, backup: Blob, onRecovered: (api: MockApi) => void): Promise<MockApi> {
    const started = Date.now();
    const summary = await checkBackup(backup);
    const checked = Date.now();
    const { store } = api;
    if (!store.replaceDatabase) throw new StoreError('OPEN_FAILED', 'This database cannot be replaced.');
    const previous = store.exportDatabase();
    await api.close();
    try {
      const kept = Date.now();
      await store.replaceDatabase(backup);
      const replaced = Date.now();
      // A restored database is never seeded, even when it holds no customers.
      const restored = await reopen(store);
      const seconds = (from: number, to: number) => `${((to - from) / 1000).toFixed(1)} s`;
      logger.info(
        `Restored a backup with ${summary.customers} customers and ${summary.jobs} jobs (${(backup.size / 1024 / 1024).toFixed(0)} MB): checked in ${seconds(started, checked)}, the current data kept in ${seconds(checked, kept)}, put in place in ${seconds(kept, replaced)}, opened in ${seconds(replaced, Date.now())}.`,
      );
      return restored;
    } catch (error) {
      // Put the data back as it was before the restore began.
      try {
        await store.replaceDatabase(previous);
        onRecovered(await reopen(store));
      } catch (recovery) {
        logger.error('The restore failed and the previous data could not be put back:', recovery);
        onRecovered(await reopen(store).catch(() => api));
        throw new StoreError(
          'OPEN_FAILED',
          `The restore failed (${errorMessage(error)}) and the previous data could not be put back. Keep the backup file, reload Otto and restore it again.`,
          { cause: recovery },
        );
      }
      throw error;
    }
  }

  async function deleteAndReopen(api: MockApi): Promise<MockApi> {
    await api.close();
    await api.store.deleteDatabase();
    logger.info('Deleted the database; starting a fresh one.');
    return open();
  }

  return { readFileOf, replaceFileAndReopen, restoreAndReopen, deleteAndReopen };
}
