import type { Database, SqlValue } from '@otto/sqlite-store';
import type { SqlClient } from './types';

/**
 * Results of costly reads kept per connection until its data changes (decision 0152). A search
 * that matches a third of a million customers spends 30 ms in SQLite WASM counting them for
 * X-Total-Count; the next page of the same search, a refetch, or the same search from another tab
 * asks the same count again. The count is exact, so it is kept only while nothing could have
 * changed it: the connection's `total_changes()` (every row any statement or trigger changed on
 * it, rolled back or not) and `data_version` (changes made by other connections to the same file)
 * are what they were when it was counted, on the same connection (`connectionStamp`). Kept only
 * in reads outside a transaction, so it never holds what a write has not committed.
 */
export interface KeptResults {
  /** The kept result of `sql` with `params`, or `compute()`'s, then kept. */
  get<T>(sql: string, params: readonly SqlValue[], compute: () => Promise<T>): Promise<T>;
}

/** How many results a connection keeps (the least recently used go first). */
const keptLimit = 64;

const kept = new WeakMap<Database, Map<string, { stamp: string; value: unknown }>>();

/**
 * The kept results of `db`'s connection.
 * @example
 * const client = { ...readClient, kept: keptResultsOf(db) };
 */
export function keptResultsOf(db: Database): KeptResults {
  const entries = kept.get(db) ?? new Map<string, { stamp: string; value: unknown }>();
  kept.set(db, entries);
  return {
    async get<T>(sql: string, params: readonly SqlValue[], compute: () => Promise<T>): Promise<T> {
      const stamp = connectionStamp(db);
      const key = `${sql}\u0000${JSON.stringify(params)}`;
      const hit = entries.get(key);
      entries.delete(key);
      if (hit && hit.stamp === stamp) {
        entries.set(key, hit);
        return hit.value as T;
      }
      const value = await compute();
      entries.set(key, { stamp, value });
      if (entries.size > keptLimit) entries.delete(entries.keys().next().value as string);
      return value;
    },
  };
}

/**
 * What names the data a connection sees now: its counters, and which connection it is. A store
 * whose database is replaced (a restore, a snapshot put back) keeps its object but opens a new
 * connection, whose counters start again and could come back to a value an older connection's
 * entry holds; a temporary table named with a random token lives and dies with its connection, so
 * the stamp is never the same across two. `schema_version` covers schema changes, which
 * `total_changes()` does not count.
 */
function connectionStamp(db: Database): string {
  const read = () =>
    db.get<{ t: number; v: number; s: number; c: string | null }>(
      `SELECT total_changes() AS t, data_version AS v, schema_version AS s,
         (SELECT name FROM sqlite_temp_schema WHERE type = 'table' AND name GLOB 'otto_connection_*') AS c
       FROM pragma_data_version, pragma_schema_version`,
    );
  let now = read();
  if (!now?.c) {
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS otto_connection_${crypto.randomUUID().replaceAll('-', '')} (x)`);
    now = read();
  }
  return `${now?.c}:${now?.t}:${now?.v}:${now?.s}`;
}

/**
 * The first row of a read, kept while the data stays the same where the client keeps results
 * (SQLite reads); run each time otherwise.
 * @example
 * const total = (await keptGet<{ n: number }>(db, 'SELECT count(*) AS n FROM customers_fts WHERE customers_fts MATCH ?', [match]))?.n ?? 0;
 */
export function keptGet<T>(db: SqlClient, sql: string, params: readonly SqlValue[]): Promise<T | undefined> {
  return db.kept ? db.kept.get(sql, params, () => db.get<T>(sql, params)) : db.get<T>(sql, params);
}

/**
 * All rows of a read, kept as `keptGet` keeps its row.
 * @example
 * const perStatus = await keptAll<{ status: string; n: number }>(db, sql, params);
 */
export function keptAll<T>(db: SqlClient, sql: string, params: readonly SqlValue[]): Promise<T[]> {
  return db.kept ? db.kept.get(sql, params, () => db.all<T>(sql, params)) : db.all<T>(sql, params);
}
