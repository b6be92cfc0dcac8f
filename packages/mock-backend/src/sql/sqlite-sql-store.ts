import { StoreError, type Database, type SqlValue } from '@otto/sqlite-store';
import { keptResultsOf } from './kept-results';
import { sqliteDialect } from './sqlite-dialect';
import type { SqlClient, SqlStore, TransactionOptions } from './types';

/**
 * The asynchronous SQL surface over a synchronous SQLite connection (SQLite WASM or
 * better-sqlite3). Units of work run one at a time, in the order they were asked for: the
 * connection is one, so a unit that awaits between statements must not let another unit's
 * statements into its transaction. Each statement still runs synchronously; an `await` on it
 * costs a microtask, not a trip through the event loop.
 * @example
 * const sql = createSqliteSqlStore(store);
 * const n = await sql.transaction((db) => db.get<{ n: number }>('SELECT count(*) AS n FROM customers'), { readOnly: true });
 */
export function createSqliteSqlStore(db: Database): SqlStore {
  // One line per connection, shared by every store over it (two APIs on one store): a unit of one
  // must not begin while another's transaction is open on the same connection.
  const line = lines.get(db) ?? { tail: Promise.resolve() };
  lines.set(db, line);

  async function runUnit<T>(fn: (client: SqlClient) => Promise<T>, readOnly: boolean): Promise<T> {
    let open = true;
    const client = clientOf(db, () => open, readOnly);
    // A read needs no transaction: no other unit runs until it is done, so it sees one state.
    if (readOnly) {
      try {
        return await fn(client);
      } finally {
        open = false;
      }
    }
    db.exec('BEGIN');
    try {
      const result = await fn(client);
      open = false;
      db.exec('COMMIT');
      return result;
    } catch (error) {
      open = false;
      try {
        db.exec('ROLLBACK');
      } catch {
        // SQLite may already have rolled back (it does so itself on some errors).
      }
      throw error;
    }
  }

  return {
    dialect: sqliteDialect,
    transaction<T>(fn: (client: SqlClient) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      const unit = line.tail.then(() => runUnit(fn, options.readOnly === true));
      line.tail = unit.catch(() => undefined);
      return unit;
    },
  };
}

/** The last unit in line on each connection; never rejects. */
const lines = new WeakMap<Database, { tail: Promise<unknown> }>();

function clientOf(db: Database, isOpen: () => boolean, readOnly: boolean): SqlClient {
  const check = () => {
    if (!isOpen()) throw new StoreError('QUERY_FAILED', 'This unit of work has ended; run the statement in a new transaction.');
  };
  return {
    dialect: sqliteDialect,
    // A read outside a transaction sees only committed data: what it counts may be kept.
    ...(readOnly ? { kept: keptResultsOf(db) } : {}),
    async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
      check();
      return db.all<T>(sql, params);
    },
    async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
      check();
      return db.get<T>(sql, params);
    },
    async run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }> {
      check();
      return { changes: db.run(sql, params).changes };
    },
  };
}
