import { openDatabaseRecovery, type DatabaseRecovery } from '@otto/mock-backend/browser';
import { createDbWorker } from './create-db-worker';

let session: Promise<DatabaseRecovery> | undefined;
const listeners = new Set<() => void>();

/**
 * The one recovery session of this page (the recovery screen and the debug delete share it: it
 * holds the database's lock until the page goes). A failed attempt is not kept, so asking again retries.
 * @example
 * const recovery = await recoverySession();
 * const bytes = await recovery.readDatabaseFile();
 */
export function recoverySession(): Promise<DatabaseRecovery> {
  session ??= openDatabaseRecovery({ createWorker: createDbWorker }).then(withNotice, (error: unknown) => {
    session = undefined;
    throw error;
  });
  return session;
}

/** Tells `listener` when the database was replaced or deleted by this page (the screen then says so). */
export function onRecovered(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function withNotice(recovery: DatabaseRecovery): DatabaseRecovery {
  const tell = <T,>(result: T): T => {
    for (const listener of listeners) listener();
    return result;
  };
  return {
    get problem() {
      return recovery.problem;
    },
    readDatabaseFile: () => recovery.readDatabaseFile(),
    restore: (backup) => recovery.restore(backup).then(tell),
    startFresh: () => recovery.startFresh().then(tell),
    deleteDatabase: () => recovery.deleteDatabase().then(tell),
    close: () => recovery.close(),
  };
}
