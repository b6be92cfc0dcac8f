import { ApiError } from '../runtime/api-error';
import {
  movedAnswer,
  transferablesOf,
  type SerializedError,
  type SerializedRequest,
  type SerializedResponse,
  type SetAsideFileInfo,
  type WorkerBackendInfo,
  type WorkerRequestMessage,
  type WorkerResponseMessage,
} from './protocol';

/** The page's end of the DB worker that runs `serveMockApiInWorker`. */
export interface DbWorkerClient {
  /** Resolves once the worker has opened, migrated and seeded the database. */
  readonly ready: Promise<WorkerBackendInfo>;
  fetch(request: SerializedRequest): Promise<SerializedResponse>;
  deleteDatabase(): Promise<WorkerBackendInfo>;
  exportDatabase(): Promise<ArrayBuffer>;
  /** Checks a backup and replaces the database with it; rejects with the reason when it is refused. */
  restoreDatabase(backup: Blob): Promise<WorkerBackendInfo>;
  /** Recovery (works when the database could not be opened): the file's bytes as stored, or null. */
  readDatabaseFile(): Promise<ArrayBuffer | null>;
  /** Recovery: keeps the file aside (when asked), puts `bytes` or a fresh database in its place, opens it. */
  replaceDatabaseFile(backup: Blob | undefined, keepAside: boolean): Promise<{ info: WorkerBackendInfo; setAside?: SetAsideFileInfo }>;
  /** Hands the worker one end of a channel whose other end the service worker sends requests on. */
  connectPort(port: MessagePort): void;
  /** Lets what is in flight finish and closes the database (the worker stays until `terminate`). */
  stop(): Promise<void>;
  terminate(): void;
}

type Settle = { resolve: (value: never) => void; reject: (error: Error) => void; request?: true };

/** Starts the DB worker and speaks its message protocol; `onProblem` hears what the worker reports that fails nothing. */
export function startDbWorker(createWorker: () => Worker, onProblem: (message: string) => void = () => {}): DbWorkerClient {
  const worker = createWorker();
  // A worker started ahead (`waitForOpen`) opens the database now; any other ignores this.
  worker.postMessage({ type: 'open' } satisfies WorkerRequestMessage);
  const pending = new Map<number, Settle>();
  let nextId = 1;
  let failure: Error | undefined;
  /** Set when the worker itself is gone (terminated, or it could not load): not even recovery can run. */
  let gone: Error | undefined;
  /** Set once `stop()` was asked: requests after it are not run by the worker. */
  let stopping = false;
  let markReady!: (info: WorkerBackendInfo) => void;
  let markFailed!: (error: Error) => void;
  const ready = new Promise<WorkerBackendInfo>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });

  function fail(error: Error): void {
    failure ??= error;
    markFailed(error);
    for (const settle of pending.values()) settle.reject(error);
    pending.clear();
  }

  worker.addEventListener('message', (event: MessageEvent<WorkerResponseMessage>) => {
    const message = event.data;
    switch (message?.type) {
      case 'ready':
        markReady(message.info);
        return;
      case 'failed':
        fail(toError(message.error));
        return;
      case 'response':
        settle(message.id, (s) => s.resolve(message.response as never));
        return;
      case 'deleted':
        settle(message.id, (s) => s.resolve(message.info as never));
        return;
      case 'exported':
        settle(message.id, (s) => s.resolve(message.bytes as never));
        return;
      case 'restored':
        settle(message.id, (s) => s.resolve(message.info as never));
        return;
      case 'stopped':
        settle(message.id, (s) => s.resolve(undefined as never));
        return;
      case 'database-file':
        settle(message.id, (s) => s.resolve(message.bytes as never));
        return;
      case 'replaced':
        settle(message.id, (s) => s.resolve({ info: message.info, ...(message.setAside ? { setAside: message.setAside } : {}) } as never));
        return;
      case 'error':
        settle(message.id, (s) => s.reject(toError(message.error)));
        return;
      case 'problem':
        onProblem(message.message);
        return;
    }
  });
  let started = false;
  ready.then(
    () => (started = true),
    () => undefined,
  );
  worker.addEventListener('error', (event: ErrorEvent) => {
    // After start-up an uncaught error is one failed message, reported in the console as usual;
    // before it, the worker could not load or open the database at all.
    if (started || failure) return;
    event.preventDefault();
    gone = new ApiError(
      503,
      'SERVICE_UNAVAILABLE',
      `The database worker failed${event.message ? `: ${event.message}` : ' to load'}. Reload the page to try again.`,
    );
    fail(gone);
  });

  function settle(id: number, fn: (s: Settle) => void): void {
    const s = pending.get(id);
    if (!s) return;
    pending.delete(id);
    fn(s);
  }

  function call<T>(message: Extract<WorkerRequestMessage, { id: number }>, transfer: Transferable[] = []): Promise<T> {
    const recovery = message.type === 'read-database-file' || message.type === 'replace-database-file' || message.type === 'delete-database';
    // After a failed start the worker still runs: recovery operations go on, the rest is refused.
    const refusal = recovery ? gone : failure;
    if (refusal) return Promise.reject(refusal);
    return new Promise<T>((resolve, reject) => {
      pending.set(message.id, { resolve: resolve as (value: never) => void, reject, ...(message.type === 'request' ? { request: true as const } : {}) });
      worker.postMessage(message, transfer);
    });
  }

  return {
    ready,
    fetch: (request) => call({ type: 'request', id: nextId++, request }, transferablesOf(request)),
    deleteDatabase: () => call({ type: 'delete-database', id: nextId++ }),
    exportDatabase: () => call({ type: 'export-database', id: nextId++ }),
    restoreDatabase: (backup) => call({ type: 'restore-database', id: nextId++, backup }),
    readDatabaseFile: () => call({ type: 'read-database-file', id: nextId++ }),
    replaceDatabaseFile: (backup, keepAside) => call({ type: 'replace-database-file', id: nextId++, keepAside, ...(backup ? { backup } : {}) }),
    connectPort(port) {
      worker.postMessage({ type: 'connect-port' } satisfies WorkerRequestMessage, [port]);
    },
    stop() {
      stopping = true;
      return call({ type: 'stop', id: nextId++ });
    },
    terminate() {
      worker.terminate();
      // After a stop the worker ran none of what is still waiting: it may go to the next owner.
      if (stopping) {
        for (const [id, s] of pending) {
          if (!s.request) continue;
          pending.delete(id);
          s.resolve(movedAnswer as never);
        }
      }
      gone = new ApiError(503, 'SERVICE_UNAVAILABLE', 'The database worker was stopped.');
      fail(gone);
    },
  };
}

function toError(error: SerializedError): ApiError {
  // The store's code (OPEN_FAILED, SCHEMA_TOO_NEW, MIGRATION_FAILED…) rides along as the cause.
  return new ApiError(503, 'SERVICE_UNAVAILABLE', error.message, undefined, { cause: { storeCode: error.code } });
}
