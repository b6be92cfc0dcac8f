import { StoreError, createSqliteStore, type SqliteStore } from '@otto/sqlite-store';
import { createMockApi } from '../create-mock-api';
import { createLogger } from '../logger';
import type { MockApi } from '../types';
import {
  deserializeRequest,
  errorMessage,
  serializeResponse,
  transferablesOf,
  type SerializedError,
  type WorkerBackendInfo,
  type WorkerRequestMessage,
  type WorkerResponseMessage,
} from './protocol';
import type { ServeMockApiInWorkerOptions, WorkerScope } from './types';

/**
 * Serves the mock API from a dedicated worker: opens the SQLite store (OPFS by default, memory with
 * the spec's warning when OPFS is unavailable), migrates and seeds it, then answers the page's
 * request, delete-database and export-database messages. The page side is `startBrowserBackend`.
 * Resolves with what was opened, or rejects (after posting `failed` to the page).
 * @example
 * // db.worker.ts
 * import { serveMockApiInWorker } from '@otto/mock-backend/worker';
 * void serveMockApiInWorker();
 */
export async function serveMockApiInWorker(options: ServeMockApiInWorkerOptions = {}): Promise<WorkerBackendInfo> {
  const scope = options.scope ?? (globalThis as unknown as WorkerScope);
  const logger = options.logger ?? createLogger();
  const busyRetryMs = options.busyRetryMs ?? 10_000;
  const post = (message: WorkerResponseMessage, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

  async function open(): Promise<MockApi> {
    const deadline = Date.now() + busyRetryMs;
    for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
      const store: SqliteStore = createSqliteStore({
        storage: options.storage ?? 'opfs',
        logger,
        ...(options.filename ? { filename: options.filename } : {}),
        ...(options.opfsDirectory ? { opfsDirectory: options.opfsDirectory } : {}),
      });
      try {
        await store.open();
      } catch (error) {
        // The previous owner's worker (a tab that just closed) releases its OPFS handles a moment later.
        if (error instanceof StoreError && error.code === 'BUSY' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, delay));
          continue;
        }
        throw error;
      }
      return createMockApi({
        store,
        logger,
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.now ? { now: options.now } : {}),
      });
    }
  }

  // Every message waits for the current database; delete-database chains a fresh one after it.
  let current: Promise<MockApi> = open();

  scope.addEventListener('message', (event) => {
    const message = event.data as WorkerRequestMessage;
    if (message?.type === 'request') {
      void current.then(
        async (api) => {
          const response = await serializeResponse(await api.fetch(deserializeRequest(message.request)));
          post({ type: 'response', id: message.id, response }, transferablesOf(response));
        },
        (error: unknown) => post({ type: 'error', id: message.id, error: toSerializedError(error) }),
      );
    } else if (message?.type === 'export-database') {
      void current.then(
        (api) => {
          const bytes = api.store.exportDatabase();
          const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
          post({ type: 'exported', id: message.id, bytes: buffer }, [buffer]);
        },
        (error: unknown) => post({ type: 'error', id: message.id, error: toSerializedError(error) }),
      );
    } else if (message?.type === 'delete-database') {
      const replaced = current.then(deleteAndReopen, () => open());
      current = replaced;
      void replaced.then(
        (api) => post({ type: 'deleted', id: message.id, info: infoOf(api) }),
        (error: unknown) => post({ type: 'error', id: message.id, error: toSerializedError(error) }),
      );
    }
  });

  async function deleteAndReopen(api: MockApi): Promise<MockApi> {
    await api.close();
    await api.store.deleteDatabase();
    logger.info('Deleted the database; starting a fresh one.');
    return open();
  }

  try {
    const info = infoOf(await current);
    post({ type: 'ready', info });
    return info;
  } catch (error) {
    post({ type: 'failed', error: toSerializedError(error) });
    throw error;
  }
}

function infoOf(api: MockApi): WorkerBackendInfo {
  const { info } = api;
  return {
    storage: info.mode,
    filename: info.filename,
    sqliteVersion: info.sqliteVersion,
    schemaVersion: info.schemaVersion,
    seeded: info.seeded,
    ...(info.fallbackReason ? { fallbackReason: info.fallbackReason } : {}),
  };
}

function toSerializedError(error: unknown): SerializedError {
  const code = error instanceof StoreError ? error.code : 'INTERNAL';
  return { code, message: errorMessage(error) };
}
