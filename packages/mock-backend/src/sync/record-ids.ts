// The ids of records a device creates (issue 40, decision 0163): from a range of its own, the same
// on the device and on the server, so a record made offline keeps its id once synced.
import type { SqlValue } from '@otto/sqlite-store';
import { ApiError } from '../runtime/api-error';
import type { SqlClient } from '../sql/types';

/** The tables whose new rows take an id a device may choose. */
export const idTables = ['customers', 'jobs', 'invoices', 'payments'] as const;
/** One of `idTables`. */
export type IdTable = (typeof idTables)[number];

/**
 * Device ids start here (2^52): below it the server's own ids, above it 2^21 devices with 2^31 ids
 * each, all exact in a JavaScript number and in a 16-digit id.
 */
export const deviceIdBase = 2 ** 52;
const idsPerDevice = 2 ** 31;
/** How many device numbers there are. */
export const deviceCount = 2 ** 21;

/**
 * The header a write carries the ids of the records it creates in (a pushed write: those its run
 * on the device took), as JSON: `{ "customers": ["4503599627370497"] }`.
 */
export const recordIdsHeader = 'x-otto-record-ids';

/**
 * Where a write's inserts take their ids from, when not the database's sequence: the ids a pushed
 * write names, or a device's own range. `taken` says which it gave, for the device's outbox.
 */
export interface RecordIds {
  take(db: SqlClient, table: IdTable): Promise<number | undefined>;
  readonly taken: Partial<Record<IdTable, string[]>>;
}

/** The id of the device's n-th record. */
export const deviceId = (deviceNo: number, n: number): number => deviceIdBase + deviceNo * idsPerDevice + n;

/**
 * The ids a write names in `x-otto-record-ids`: each in the devices' range; a table's ids are taken
 * in order, and a write that needs more gets the database's own. An id that is taken already
 * answers 409 (nothing is saved); a header that is not such a list answers 400.
 * @example
 * const ids = namedIds('{"customers":["4503599627370497"]}');
 */
export function namedIds(header: string): RecordIds {
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    parsed = undefined;
  }
  const lists = new Map<IdTable, number[]>();
  const refuse = () =>
    new ApiError(400, 'INVALID_PARAMS', `${recordIdsHeader} must be a JSON object of ${idTables.join(', ')} to lists of ids from ${deviceIdBase} up (a device's own range).`);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse();
  for (const [table, list] of Object.entries(parsed)) {
    if (!(idTables as readonly string[]).includes(table) || !Array.isArray(list) || list.length > 1_000) throw refuse();
    const ids = list.map((id) => (typeof id === 'string' && /^\d{16}$/.test(id) ? Number(id) : NaN));
    if (ids.some((id) => !Number.isSafeInteger(id) || id < deviceIdBase)) throw refuse();
    lists.set(table as IdTable, ids);
  }
  const taken: Partial<Record<IdTable, string[]>> = {};
  return {
    taken,
    async take(db, table) {
      const id = lists.get(table)?.shift();
      if (id === undefined) return undefined;
      if (await db.get(`SELECT 1 AS x FROM ${table} WHERE id = ?`, [id])) {
        throw new ApiError(409, 'CONFLICT', `The id ${id} of a new record is taken already, so nothing was saved. A device gives each record it creates an id of its own range once.`);
      }
      (taken[table] ??= []).push(String(id));
      return id;
    },
  };
}

/**
 * A device's own range (its `sync_device` row): each id taken moves its count on, in the write's
 * transaction. Undefined where the database is no device's.
 * @example
 * const ids = await deviceIds(db); // undefined on a server
 */
export async function deviceIds(db: SqlClient): Promise<RecordIds | undefined> {
  const device = await db.get<{ device_no: number }>('SELECT device_no FROM sync_device WHERE k = 1');
  if (!device) return undefined;
  const taken: Partial<Record<IdTable, string[]>> = {};
  return {
    taken,
    async take(client, table) {
      const row = await client.get<{ device_no: number; n: number }>('UPDATE sync_device SET next_n = next_n + 1 WHERE k = 1 RETURNING device_no, next_n - 1 AS n');
      const id = deviceId(Number(row!.device_no), Number(row!.n));
      (taken[table] ??= []).push(String(id));
      return id;
    },
  };
}

/**
 * The id column of a new row, for an INSERT: the id the write's `ids` give, else the database's
 * own next (on SQLite below the devices' range: the largest id there plus one, so a device's ids
 * never move where the server's own ones go), else nothing (PostgreSQL's sequence).
 * @example
 * const id = await newId(db, 'customers');
 * await db.get(`INSERT INTO customers (${id.column}full_name) VALUES (${id.mark}?) RETURNING id`, [...id.params, name]);
 */
export async function newId(db: SqlClient, table: IdTable): Promise<{ column: string; mark: string; params: SqlValue[] }> {
  const chosen = await db.ids?.take(db, table);
  if (chosen !== undefined) return { column: 'id, ', mark: '?, ', params: [chosen] };
  const own = db.dialect.ownIdSql?.(table, deviceIdBase);
  return own ? { column: 'id, ', mark: `${own}, `, params: [] } : { column: '', mark: '', params: [] };
}
