// A device's outbox (issue 40, decision 0163): each write made on the device, in the write's own
// transaction, until the server has run it.
import { etagOf, type ChangeEvent } from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import type { IdTable } from './record-ids';

/** A write as the device ran it: what to send the server again, and what it touched here. */
export interface DeviceWrite {
  requestId: string;
  method: string;
  /** The path below the API base, with its query. */
  path: string;
  body: string | null;
  ifMatch: string | null;
  /** The versions `If-Match` names (parsed), to find the write of this device that made them. */
  ifMatchVersions: number[] | '*' | undefined;
  ids: Partial<Record<IdTable, string[]>>;
  stamp: number;
  touched: readonly ChangeEvent[];
  /**
   * The record as it was before a PUT or PATCH of one record (its GET's answer), for merging it
   * with another device's edit of other fields when the server refuses it (412).
   */
  base: unknown;
  madeAt: number;
}

/**
 * Keeps a write in the outbox. A write made over a version that an earlier write of this device
 * produced names that write (`after_request`) while it waits: the server gives that version
 * another number, so the If-Match is taken from its answer when it is pushed; once run there, the
 * version the server gave it.
 * @example
 * await keepInOutbox(db, write);
 */
export async function keepInOutbox(db: SqlClient, write: DeviceWrite): Promise<void> {
  let after: string | null = null;
  let ifMatch = write.ifMatch;
  if (Array.isArray(write.ifMatchVersions) && write.ifMatchVersions.length > 0) {
    const marks = write.ifMatchVersions.map(() => '?').join(', ');
    const producer = await db.get<{ request_id: string; confirmed: number | null }>(
      `SELECT request_id, confirmed FROM sync_outbox WHERE refused IS NULL AND stamp IN (${marks}) ORDER BY seq DESC LIMIT 1`,
      write.ifMatchVersions,
    );
    // Run on the server already (its version not pulled yet): the version the server gave it.
    if (producer?.confirmed) ifMatch = etagOf(Number(producer.confirmed));
    else after = producer?.request_id ?? null;
  }
  await db.run(
    // The copy's position as the write is made: a pull skips what a waiting write touched, and
    // pulls again from here when the write is refused (device-sync.ts).
    `INSERT INTO sync_outbox (request_id, method, path, body, if_match, after_request, ids, stamp, touched, base, made_dt, made_at_position)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT position FROM sync_device WHERE k = 1))`,
    [
      write.requestId, write.method, write.path, write.body, ifMatch, after, JSON.stringify(write.ids), write.stamp, JSON.stringify(write.touched),
      write.base === undefined ? null : JSON.stringify(write.base), write.madeAt,
    ],
  );
}
