import type { SqlClient } from '../sql/types';

/**
 * The moment of one write, from the database (decision 0120): one more than the last write's
 * stamp, or the writer's clock when that is later. Taken as the first statement of every write's
 * transaction, it is what the write stores as `modified_dt` (and `created_dt` of what it creates),
 * so a record's version, its ETag, grows with every write, whatever the clocks of the processes
 * that write do: two writes in one millisecond, or through a process whose clock is behind, still
 * get later versions. On PostgreSQL the stamp row stays locked until the write commits, so stamps
 * also follow the order in which writes commit ("newest first" and the change feed agree).
 * Triggers (migration 14) keep the stamp at or above every `modified_dt` written another way
 * (seeding, moving a first-start file's dates).
 * @example
 * const at = await takeVersionStamp(db, Date.now()); // 1767225600001 if 1767225600000 was the last
 */
export async function takeVersionStamp(db: SqlClient, clock: number): Promise<number> {
  // A clock that is not a whole number (a fake one) must not make the stamp a fraction.
  const at = Number.isFinite(clock) ? Math.floor(clock) : 0;
  const row = await db.get<{ stamp: number }>(`UPDATE version_stamp SET last = ${db.dialect.greatest('last + 1', '?')} WHERE k = 1 RETURNING last AS stamp`, [at]);
  if (!row) throw new Error('The version_stamp row is missing (migration 14 was not applied?).');
  return Number(row.stamp);
}
