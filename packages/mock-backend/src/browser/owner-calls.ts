// Database operations a tab asks of the tab that owns the database (export, restore, delete):
// run here when this tab owns it, else sent to the owner over the tabs' channel and answered there.
import { ApiError } from '../runtime/api-error';
import type { DbWorkerClient } from './db-worker-client';
import { callTimeoutMs, restoreTimeoutMs } from './host/budgets';
import { errorMessage, type SerializedError, type WorkerBackendInfo } from './protocol';
import type { TabMessage } from './tab-messages';

export type DatabaseOp = 'delete-database' | 'export-database' | 'restore-database';
type CallResult = { bytes?: ArrayBuffer; error?: SerializedError };

export interface OwnerCallsOptions {
  channel: BroadcastChannel;
  tabId: string;
  /** This tab's DB worker, while it owns the database. */
  worker(): DbWorkerClient | undefined;
  /** The owner tab, while another tab owns the database. */
  owner(): string | undefined;
  /** The database was replaced here (a restore, a delete): where it is now. */
  replaced(info: WorkerBackendInfo): void;
}

export function createOwnerCalls(options: OwnerCallsOptions) {
  const { channel, tabId } = options;
  const waiting = new Map<string, (result: CallResult) => void>();
  let nextId = 1;

  async function runHere(op: DatabaseOp, backup?: Blob): Promise<CallResult> {
    try {
      const worker = options.worker();
      if (!worker) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'This tab does not own the database.');
      await worker.ready;
      if (op === 'export-database') return { bytes: await worker.exportDatabase() };
      const info = op === 'restore-database' ? await worker.restoreDatabase(backup ?? new Blob([])) : await worker.deleteDatabase();
      options.replaced(info);
      return {};
    } catch (error) {
      return { error: { code: 'SERVICE_UNAVAILABLE', message: errorMessage(error) } };
    }
  }

  function call(op: DatabaseOp, backup?: Blob): Promise<ArrayBuffer | undefined> {
    return new Promise((resolve, reject) => {
      const settle = (result: CallResult) => {
        if (result.error) reject(new ApiError(503, 'SERVICE_UNAVAILABLE', result.error.message));
        else resolve(result.bytes);
      };
      if (options.worker()) return void runHere(op, backup).then(settle);
      const owner = options.owner();
      if (!owner) return reject(new ApiError(503, 'SERVICE_UNAVAILABLE', 'No tab owns the database right now. Try again in a moment.'));
      const id = `${tabId}:call:${nextId++}`;
      const timeout = setTimeout(() => {
        waiting.delete(id);
        reject(new ApiError(504, 'TIMEOUT', `The tab that owns the database did not finish ${op} in time.`));
      }, op === 'restore-database' ? restoreTimeoutMs(backup) : callTimeoutMs);
      waiting.set(id, (result) => {
        waiting.delete(id);
        clearTimeout(timeout);
        settle(result);
      });
      channel.postMessage({ type: 'call', id, from: tabId, to: owner, op, ...(backup ? { backup } : {}) } satisfies TabMessage);
    });
  }

  /** A `call` for this tab (when it owns the database) or a `result` for one it asked. */
  function onMessage(message: Extract<TabMessage, { type: 'call' | 'result' }>): void {
    if (message.to !== tabId) return;
    if (message.type === 'result') return waiting.get(message.id)?.(message);
    if (!options.worker()) return;
    void runHere(message.op, message.backup).then((result) => channel.postMessage({ type: 'result', id: message.id, to: message.from, ...result } satisfies TabMessage));
  }

  return { call, onMessage };
}
