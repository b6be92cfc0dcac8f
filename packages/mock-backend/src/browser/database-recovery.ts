import { ApiError } from '../runtime/api-error';
import { asBackupBlob } from '../database/backup-limits';
import { startDbWorker } from './db-worker-client';
import { errorMessage, type SetAsideFileInfo } from './protocol';

/**
 * Options of `openDatabaseRecovery`.
 * @example
 * const options: DatabaseRecoveryOptions = { createWorker: () => new Worker(new URL('./db.worker.js', import.meta.url), { type: 'module' }) };
 */
export interface DatabaseRecoveryOptions {
  /** Starts the same DB worker as `startBrowserBackend` (it runs `serveMockApiInWorker`). */
  createWorker: () => Worker;
  /**
   * The Web Lock of the tab that owns the database: recovery holds it, so no tab opens the file meanwhile.
   * @default 'otto-db-owner'
   */
  lockName?: string;
  /**
   * How long to wait for that lock (another tab may hold it) before giving up in words.
   * @default 20000
   */
  lockTimeoutMs?: number;
}

/**
 * A recovery session on a database that could not be opened. It owns the database (Web Lock)
 * until `close()`. After `restore` or `startFresh` succeeded, reload the page to use Otto again.
 * @example
 * const recovery = await openDatabaseRecovery({ createWorker });
 * if (recovery.problem) await recovery.startFresh();
 * recovery.close();
 */
export interface DatabaseRecovery {
  /** Why the database cannot be opened, in words, with the store's code; undefined when it opened this time. */
  readonly problem: { code: string; message: string } | undefined;
  /** The database file exactly as stored (unchecked), to download it; undefined when there is none. */
  readDatabaseFile(): Promise<Uint8Array | undefined>;
  /** Checks a backup, keeps the current file aside under a dated name, and puts the backup in its place. */
  restore(backup: Uint8Array | Blob): Promise<{ setAside?: SetAsideFileInfo }>;
  /** Keeps the current file aside under a dated name and starts a fresh database (first-start data). */
  startFresh(): Promise<{ setAside?: SetAsideFileInfo }>;
  /** Deletes the database file without keeping it (the spec's debug delete) and starts a fresh one. */
  deleteDatabase(): Promise<void>;
  /** Ends the worker and lets the lock go. */
  close(): void;
}

/**
 * Opens a database for recovery after `startBrowserBackend` failed to open it (damaged file, a
 * schema newer than this app, a failed migration): takes the owner lock, starts the DB worker
 * (which tries to open the database once more and reports why it cannot), and offers what still
 * works on the file itself.
 * @example
 * try {
 *   await startBrowserBackend(options);
 * } catch (error) {
 *   if (databaseProblemOf(error)) {
 *     const recovery = await openDatabaseRecovery({ createWorker: options.createWorker });
 *     download(await recovery.readDatabaseFile());
 *   }
 * }
 */
export async function openDatabaseRecovery(options: DatabaseRecoveryOptions): Promise<DatabaseRecovery> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await new Promise<void>((resolve, reject) => {
    const signal = AbortSignal.timeout(options.lockTimeoutMs ?? 20_000);
    navigator.locks
      .request(options.lockName ?? 'otto-db-owner', { signal }, () => {
        resolve();
        return held;
      })
      .catch((error: unknown) => {
        reject(
          new ApiError(
            503,
            'SERVICE_UNAVAILABLE',
            (error as DOMException)?.name === 'TimeoutError'
              ? 'Another Otto tab is using the database. Close the other Otto tabs, then reload this one.'
              : `Otto could not take the database for recovery: ${errorMessage(error)}`,
          ),
        );
      });
  });

  const worker = startDbWorker(options.createWorker, (message) => console.error(message));
  let problem: { code: string; message: string } | undefined;
  try {
    await worker.ready;
  } catch (error) {
    problem = { code: databaseProblemOf(error) ?? 'OPEN_FAILED', message: errorMessage(error) };
  }
  let closed = false;
  return {
    problem,
    async readDatabaseFile() {
      const bytes = await worker.readDatabaseFile();
      return bytes ? new Uint8Array(bytes) : undefined;
    },
    async restore(backup) {
      const { setAside } = await worker.replaceDatabaseFile(asBackupBlob(backup), true);
      return setAside ? { setAside } : {};
    },
    async startFresh() {
      const { setAside } = await worker.replaceDatabaseFile(undefined, true);
      return setAside ? { setAside } : {};
    },
    async deleteDatabase() {
      await worker.replaceDatabaseFile(undefined, false);
    },
    close() {
      if (closed) return;
      closed = true;
      worker.terminate();
      release();
    },
  };
}

const databaseCodes = new Set(['OPEN_FAILED', 'INVALID_DATABASE', 'MIGRATION_FAILED', 'SCHEMA_TOO_NEW', 'QUERY_FAILED', 'CONSTRAINT', 'STORAGE_FULL']);

/**
 * Whether an error of `startBrowserBackend` means the database itself could not be opened or used
 * (so `openDatabaseRecovery` can help), and the store's code if so: `OPEN_FAILED`,
 * `SCHEMA_TOO_NEW`, `MIGRATION_FAILED`… Undefined for anything else (no service worker, a timeout,
 * the files busy in another tab).
 * @example
 * const code = databaseProblemOf(error); // 'SCHEMA_TOO_NEW'
 */
export function databaseProblemOf(error: unknown): string | undefined {
  const code = ((error as { cause?: { storeCode?: unknown } } | null)?.cause?.storeCode);
  return typeof code === 'string' && databaseCodes.has(code) ? code : undefined;
}
