// Waits for one message the page posts to the DB worker (the compiled SQLite, the first-start file and its moment).
import type { Logger } from '../logger';
import type { WorkerRequestMessage } from './protocol';
import type { WorkerScope } from './types';

/**
 * The first message of `type` the page posts (`postCompiledSqlite`, `postSeedFile`), or undefined
 * when none came within 10 seconds (the worker then loads `what` itself).
 */
export function messageFromPage<T extends 'sqlite-wasm' | 'seed-file' | 'seed-moment'>(
  scope: WorkerScope,
  type: T,
  logger: Logger,
  what: string,
): Promise<Extract<WorkerRequestMessage, { type: T }> | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger.warn(`The page sent no ${what} within 10 seconds; loading it here.`);
      resolve(undefined);
    }, 10_000);
    scope.addEventListener('message', (event) => {
      const message = event.data as WorkerRequestMessage | null;
      if (message?.type !== type) return;
      clearTimeout(timer);
      resolve(message as Extract<WorkerRequestMessage, { type: T }>);
    });
  });
}
