import { StoreError } from './store-error';

/** The nesting depth of one connection's transactions; savepoints are named after it. */
export interface TransactionDepth {
  value: number;
}

/**
 * Runs `fn` in a transaction on a connection, whatever the driver: BEGIN/COMMIT at the outside,
 * SAVEPOINT/RELEASE when nested; rolled back (to the savepoint) when `fn` throws or the commit
 * fails. `exec` runs SQL without parameters and throws StoreError on failure.
 */
export function runTransaction<T>(exec: (sql: string) => void, depth: TransactionDepth, fn: () => T): T {
  const savepoint = depth.value > 0 ? `otto_sp_${depth.value}` : undefined;
  const rollback = () => {
    try {
      exec(savepoint ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
    } catch {
      // SQLite may already have rolled back (it does so itself on some errors).
    }
  };
  exec(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN');
  depth.value++;
  let result: T;
  try {
    result = fn();
    if (result instanceof Promise) {
      throw new StoreError('QUERY_FAILED', 'transaction() needs a synchronous function; it returned a Promise.');
    }
  } catch (error) {
    depth.value--;
    rollback();
    throw error;
  }
  depth.value--;
  try {
    exec(savepoint ? `RELEASE ${savepoint}` : 'COMMIT');
  } catch (error) {
    rollback();
    throw error;
  }
  return result;
}
