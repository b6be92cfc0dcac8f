import { randomEpochSql, syncHorizonNowSql } from '../sync/sync-log';
import { randomUUID } from 'node:crypto';
import { createSqliteStore, StoreError, type Database } from '@otto/sqlite-store';
import { migrations } from '../database/migrations';
import { exportSeedData, type SeedData } from '../database/seed-data';
import type { SeedOptions } from '../database/seed';
import type { SqlClient } from '../sql/types';
import type { ApiDatabase, MockChangeEvent } from '../types';
import { createPostgresStore, type PostgresStore } from './postgres-store';

/** The channel every API process on one database tells the others about its committed writes on. */
export const changeChannel = 'otto_changes';

/** NOTIFY payloads must stay under 8000 bytes: an event naming more ids is sent in pieces. */
const maxIdsPerNotice = 300;

/**
 * Where a PostgreSQL API's data lives.
 * @example
 * const where: PostgresDatabaseOptions = { connectionString: 'postgres://otto@127.0.0.1:5432/otto', poolSize: 20 };
 */
export interface PostgresDatabaseOptions {
  /** `postgres://user:password@host:port/database`. */
  connectionString: string;
  /**
   * Connections this process keeps open to PostgreSQL at most.
   * @default 10
   */
  poolSize?: number;
}

/** What an API on PostgreSQL shows of its database. */
export interface PostgresShown {
  readonly info: { mode: 'postgres'; filename: string; serverVersion: string; seeded: { customers: number; jobs: number }; schemaVersion: number };
}

/** The connection string without its password, for logs. */
export function redactConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unreadable connection string)';
  }
}

/**
 * The API's database on PostgreSQL (decision 0122), for `createMockApi({ database })`: a pool that
 * migrates the schema (once, whichever process comes first), seeds an empty database (once), and
 * hears the writes other processes on the same database make (LISTEN/NOTIFY) and tells them its own.
 * Extensions and `{ file }` seeds need SQLite and are refused.
 * @example
 * const api = await createMockApi({ database: postgresDatabase({ connectionString: process.env.DATABASE_URL! }) });
 */
export function postgresDatabase(options: PostgresDatabaseOptions): ApiDatabase<PostgresShown> {
  return {
    async open({ seed, now, logger, extensions, tell }) {
      if (extensions.length > 0) throw new TypeError('Extensions need a SQLite store; they cannot run on PostgreSQL.');
      if (seed && 'file' in seed) throw new TypeError('On PostgreSQL, seed with { count } or { data } (seed data, not a SQLite file).');
      const store = await createPostgresStore({ connectionString: options.connectionString, poolSize: options.poolSize ?? 10, logger });
      const origin = randomUUID();
      let seeded = { customers: 0, jobs: 0 };
      let schemaVersion = 0;
      let serverVersion = '';
      let unlisten: (() => Promise<void>) | undefined;
      try {
        // A schema step may fill in data beside the change log: the data is another epoch, so every
        // device takes everything once (decision 0168).
        const migrated = await store.migrate();
        if (migrated.applied.length > 0) await store.transaction((db) => db.run(`UPDATE sync_state SET epoch = ${randomEpochSql.postgres} WHERE k = 1`));
        schemaVersion = await store.schemaVersion();
        serverVersion = (await store.transaction((db) => db.get<{ server_version: string }>('SHOW server_version'), { readOnly: true }))?.server_version ?? '';
        if (seed !== false) seeded = await seedIfEmpty(store, seed ?? {}, now());
        // Another process's writes: told to this process's listeners as if made here.
        unlisten = await store.listen(changeChannel, (payload) => {
          let notice: { origin?: string; event?: MockChangeEvent };
          try {
            notice = JSON.parse(payload) as typeof notice;
          } catch {
            return;
          }
          if (notice.origin !== origin && notice.event) tell(notice.event);
        }, () => {
          // The listening connection dropped and is back: other processes' writes meanwhile were not
          // heard. An event without ids says "everything of this kind may have changed" (the app
          // refetches what it shows), as the app itself does when its own stream comes back.
          tell({ entity: 'customer', kind: 'updated', ids: [] });
          tell({ entity: 'job', kind: 'updated', ids: [] });
        });
      } catch (error) {
        await store.close();
        throw error;
      }
      return {
        sql: store,
        extensionDb: noSqliteHere,
        shown: { info: { mode: 'postgres', filename: redactConnectionString(options.connectionString), serverVersion, seeded, schemaVersion } },
        publish(event) {
          for (let i = 0; i < Math.max(1, event.ids.length); i += maxIdsPerNotice) {
            const piece = { ...event, ids: event.ids.slice(i, i + maxIdsPerNotice) };
            store.notify(changeChannel, JSON.stringify({ origin, event: piece })).catch((error: unknown) => {
              logger.warn('Could not tell the other API processes about a write', error);
            });
          }
        },
        async close() {
          await unlisten?.().catch(() => undefined);
          await store.close();
        },
      };
    },
  };
}

/** Extensions' synchronous SQLite connection does not exist on PostgreSQL. */
const noSqliteHere: Database = new Proxy({} as Database, {
  get() {
    throw new StoreError('NOT_INITIALIZED', 'This API runs on PostgreSQL: there is no SQLite connection (extensions need a SQLite store).');
  },
});

/**
 * Seeds the database when it has no customers, under an advisory lock so that processes starting
 * together seed it once. The rows are made by the same generator as on SQLite (in a throwaway
 * in-memory SQLite database), then copied in one statement per table with their ids.
 */
async function seedIfEmpty(store: PostgresStore, seed: SeedOptions | { data: SeedData | (() => Promise<SeedData>) }, now: number): Promise<{ customers: number; jobs: number }> {
  return store.transaction(async (db) => {
    await db.get("SELECT pg_advisory_xact_lock(hashtext('otto seed'))");
    const existing = (await db.get<{ n: number }>('SELECT count(*) AS n FROM customers'))?.n ?? 0;
    if (existing > 0) return { customers: 0, jobs: 0 };
    const data = 'data' in seed ? (typeof seed.data === 'function' ? await seed.data() : seed.data) : await generateSeedData(seed, now);
    const shift = now - data.generatedAt;
    await copyTable(db, 'customers', data.customers, shift);
    await copyTable(db, 'jobs', data.jobs, shift);
    // The invoiced and paid jobs' invoices, as SQLite's seed gives them (migration 18's backfill).
    for (const statement of db.dialect.backfillInvoices) await db.run(statement);
    // Not in the change log: a device that pulled before takes everything (decision 0163).
    await db.run(syncHorizonNowSql);
    return { customers: data.customers.rows.length, jobs: data.jobs.rows.length };
  });
}

async function generateSeedData(seed: SeedOptions, now: number): Promise<SeedData> {
  const scratch = createSqliteStore({ storage: 'memory' });
  await scratch.open();
  try {
    scratch.migrate(migrations);
    const { seedDatabase } = await import('../database/seed');
    seedDatabase(scratch, seed, now);
    return exportSeedData(scratch, now);
  } finally {
    await scratch.close();
  }
}

/** Inserts a seed table's rows with their ids (dates moved by `shift`), then moves the id sequence past them. */
async function copyTable(db: SqlClient, table: 'customers' | 'jobs', { columns, rows }: SeedData['customers'], shift: number): Promise<void> {
  if (rows.length === 0) return;
  const safe = columns.filter((c) => /^[a-z_]+$/.test(c));
  const records = rows.map((row) =>
    Object.fromEntries(safe.map((c) => {
      const value = row[columns.indexOf(c)] ?? null;
      return [c, c.endsWith('_dt') && typeof value === 'number' ? value + shift : value];
    })),
  );
  const list = safe.join(', ');
  for (let i = 0; i < records.length; i += 5_000) {
    await db.run(`INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, ?::json)`, [
      JSON.stringify(records.slice(i, i + 5_000)),
    ]);
  }
  await db.get(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
}
