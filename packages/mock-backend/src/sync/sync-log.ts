// The change log a pull reads (issue 40, decision 0163): every committed write's change events,
// at the write's version stamp, kept 30 days.
import { changeEntities, syncLimits, type ChangeEvent } from '@otto/api-contract';
import type { SqlClient } from '../sql/types';

/**
 * Migration 20's SQL, on SQLite and PostgreSQL alike: the log (a write's events at its stamp, `n`
 * their order within it) and the one row saying which data this is (`epoch`: another after the
 * data is replaced as a whole) and from which position the log is complete (`horizon`: a device
 * whose position is older must take everything again).
 * @example
 * db.exec(syncLogSql('INTEGER', "lower(hex(randomblob(8)))"));
 */
export function syncLogSql(bigint: string, randomText: string): string {
  return `
    CREATE TABLE sync_log (
      pos ${bigint} NOT NULL,
      n INTEGER NOT NULL,
      entity TEXT NOT NULL,
      kind TEXT NOT NULL,
      ids TEXT NOT NULL,
      PRIMARY KEY (pos, n)
    );
    CREATE TABLE sync_state (
      k INTEGER PRIMARY KEY CHECK (k = 1),
      epoch TEXT NOT NULL,
      horizon ${bigint} NOT NULL
    );
    INSERT INTO sync_state (k, epoch, horizon) SELECT 1, ${randomText}, last FROM version_stamp WHERE k = 1;
    -- On a device that syncs with a server (none elsewhere): its number (the range of the ids it
    -- gives what it creates), how many ids it gave, the server's epoch and its position there.
    CREATE TABLE sync_device (
      k INTEGER PRIMARY KEY CHECK (k = 1),
      device_no INTEGER NOT NULL,
      next_n ${bigint} NOT NULL,
      epoch TEXT,
      position ${bigint}
    );
    -- A device's writes, oldest first, until the copy has the server's version of them: waiting,
    -- run on the server (confirmed: the version it gave), or refused (a notice).
    CREATE TABLE sync_outbox (
      seq ${bigint} PRIMARY KEY,
      request_id TEXT NOT NULL UNIQUE,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      body TEXT,
      if_match TEXT,
      after_request TEXT,
      ids TEXT NOT NULL,
      stamp ${bigint} NOT NULL,
      touched TEXT NOT NULL,
      base TEXT,
      made_dt ${bigint} NOT NULL,
      confirmed ${bigint},
      refused TEXT
    );
  `;
}

/** A new epoch, in SQL: the SQLite and PostgreSQL spellings of 16 random hex digits. */
export const randomEpochSql = {
  sqlite: 'lower(hex(randomblob(8)))',
  postgres: 'substr(md5(random()::text || clock_timestamp()::text), 1, 16)',
} as const;

/**
 * Moves the log's horizon to the latest stamp: for writes made beside the log (seeding), so that a
 * device that pulled before them takes everything again.
 * @example
 * store.run(syncHorizonNowSql);
 */
export const syncHorizonNowSql = 'UPDATE sync_state SET horizon = (SELECT last FROM version_stamp WHERE k = 1) WHERE k = 1';

/**
 * The change log turned off (decision 0167): the horizon past any position a device can have, so
 * that every pull answers with everything (the log is not kept).
 */
export const changeLogOffSql = `UPDATE sync_state SET horizon = ${Number.MAX_SAFE_INTEGER} WHERE k = 1 AND horizon < ${Number.MAX_SAFE_INTEGER}`;

/** The change log turned on (again): complete from the latest stamp on, when it was off. */
export const changeLogOnSql = `UPDATE sync_state SET horizon = (SELECT last FROM version_stamp WHERE k = 1) WHERE k = 1 AND horizon = ${Number.MAX_SAFE_INTEGER}`;

/** The entities a pull knows: Otto's own (an extension's events are not logged). */
const logged: ReadonlySet<string> = new Set(changeEntities.filter((e) => e !== 'database'));

/**
 * Logs a write's change events at its stamp, inside the write's transaction (so the log has
 * exactly the writes that committed, in the order their stamps give). Every 256th stamp also
 * forgets what is older than `syncLimits.logKeptMs` and moves the horizon up to it.
 * @example
 * await logChanges(db, stamp, [{ entity: 'customer', kind: 'created', ids: ['501'] }]);
 */
export async function logChanges(db: SqlClient, stamp: number, events: readonly ChangeEvent[]): Promise<void> {
  let n = 0;
  for (const event of events) {
    // The business settings are one record: their events name no id.
    if (!logged.has(event.entity) || (event.ids.length === 0 && event.entity !== 'settings')) continue;
    await db.run('INSERT INTO sync_log (pos, n, entity, kind, ids) VALUES (?, ?, ?, ?, ?)', [stamp, n++, event.entity, event.kind, JSON.stringify(event.ids)]);
  }
  if (n > 0 && stamp % 256 === 0) await forgetOldChanges(db, stamp - syncLimits.logKeptMs);
}

/**
 * Forgets the log's entries before `before` (a stamp) and raises the horizon to it: a device that
 * last pulled before then gets everything again.
 * @example
 * await forgetOldChanges(db, Date.now() - syncLimits.logKeptMs);
 */
export async function forgetOldChanges(db: SqlClient, before: number): Promise<void> {
  const oldest = await db.get<{ pos: number }>('SELECT pos FROM sync_log ORDER BY pos LIMIT 1');
  if (!oldest || Number(oldest.pos) >= before) return;
  await db.run('DELETE FROM sync_log WHERE pos < ?', [before]);
  await db.run(`UPDATE sync_state SET horizon = ${db.dialect.greatest('horizon', '?')} WHERE k = 1`, [before - 1]);
}
