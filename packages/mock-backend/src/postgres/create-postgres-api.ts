import { randomUUID } from 'node:crypto';
import type { ChangeEvent } from '@otto/api-contract';
import { createSqliteStore, StoreError, type Database } from '@otto/sqlite-store';
import { customerHandlers } from '../customers/customer-handlers';
import { migrations } from '../database/migrations';
import { exportSeedData, type SeedData } from '../database/seed-data';
import type { SeedOptions } from '../database/seed';
import { importHandlers } from '../imports/import-handlers';
import { jobHandlers } from '../jobs/job-handlers';
import { createLogger, type Logger } from '../logger';
import { reportHandlers } from '../reports/report-handlers';
import { createChangeListeners } from '../runtime/change-listeners';
import { createRouter } from '../runtime/create-router';
import { errorResponse } from '../runtime/responses';
import type { SqlClient } from '../sql/types';
import type { ChangeListener, MockChangeEvent } from '../types';
import { createPostgresStore, type PostgresStore } from './postgres-store';

/** The channel every API process on one database tells the others about its committed writes on. */
export const changeChannel = 'otto_changes';

/** NOTIFY payloads must stay under 8000 bytes: an event naming more ids is sent in pieces. */
const maxIdsPerNotice = 300;

/**
 * Options of `createPostgresApi`.
 * @example
 * const options: PostgresApiOptions = { connectionString: 'postgres://otto@127.0.0.1:5432/otto', poolSize: 20 };
 */
export interface PostgresApiOptions {
  /** `postgres://user:password@host:port/database`. */
  connectionString: string;
  /**
   * Connections this process keeps open to PostgreSQL at most.
   * @default 10
   */
  poolSize?: number;
  /**
   * What to fill an empty database with (no customers yet): random customers with a history of
   * jobs (`SeedOptions`), data made ahead of time (`{ data }`), or `false` for none. Several
   * processes starting on one empty database seed it once.
   * @default { count: 500, jobs: true }
   */
  seed?: SeedOptions | { data: SeedData | (() => Promise<SeedData>) } | false;
  now?: () => number;
  logger?: Logger;
  /** Told about every committed write, made through this process or any other on the database. */
  onChange?: ChangeListener;
}

/**
 * The Otto API served from PostgreSQL: the same router and handlers as on SQLite.
 * @example
 * const api = await createPostgresApi({ connectionString });
 * const res = await api.fetch(new Request('http://localhost/api/customers'));
 */
export interface PostgresApi {
  fetch(request: Request): Promise<Response>;
  readonly info: { mode: 'postgres'; filename: string; serverVersion: string; seeded: { customers: number; jobs: number }; schemaVersion: number };
  /** Calls `listener` after every committed write made through any API process on this database. */
  onChange<E extends MockChangeEvent = ChangeEvent>(listener: (event: E) => void): () => void;
  close(): Promise<void>;
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
 * Opens a pool on PostgreSQL, migrates the schema (once, whichever process comes first), seeds an
 * empty database, and answers the API's requests from it. Writes made through other processes on
 * the same database reach `onChange` through LISTEN/NOTIFY.
 * @example
 * const api = await createPostgresApi({ connectionString: process.env.DATABASE_URL! });
 */
export async function createPostgresApi(options: PostgresApiOptions): Promise<PostgresApi> {
  const logger = options.logger ?? createLogger();
  const now = options.now ?? Date.now;
  const store: PostgresStore = await createPostgresStore({ connectionString: options.connectionString, poolSize: options.poolSize ?? 10, logger });
  const origin = randomUUID();
  const feed = createChangeListeners(options.onChange, (error) => logger.error('A change-feed listener failed', error));
  const tell = (event: MockChangeEvent) => feed.tell(event);
  let seeded = { customers: 0, jobs: 0 };
  let schemaVersion = 0;
  let serverVersion = '';
  let unlisten: (() => Promise<void>) | undefined;
  try {
    await store.migrate();
    schemaVersion = await store.schemaVersion();
    serverVersion = (await store.transaction((db) => db.get<{ server_version: string }>('SHOW server_version'), { readOnly: true }))?.server_version ?? '';
    if (options.seed !== false) seeded = await seedIfEmpty(store, options.seed ?? {}, now());
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
  const publish = (event: ChangeEvent) => {
    tell(event);
    for (let i = 0; i < Math.max(1, event.ids.length); i += maxIdsPerNotice) {
      const piece = { ...event, ids: event.ids.slice(i, i + maxIdsPerNotice) };
      store.notify(changeChannel, JSON.stringify({ origin, event: piece })).catch((error: unknown) => {
        logger.warn('Could not tell the other API processes about a write', error);
      });
    }
  };
  const route = createRouter({
    handlers: [...customerHandlers, ...jobHandlers, ...importHandlers, ...reportHandlers],
    sql: store,
    db: noSqliteHere,
    now,
    logger,
    publish,
  });
  let closed = false;
  return {
    info: { mode: 'postgres', filename: redactConnectionString(options.connectionString), serverVersion, seeded, schemaVersion },
    async fetch(request) {
      if (closed) return errorResponse(503, { code: 'SERVICE_UNAVAILABLE', message: 'The API has been closed.' });
      return route(request);
    },
    onChange: feed.subscribe,
    async close() {
      if (closed) return;
      closed = true;
      await unlisten?.().catch(() => undefined);
      await store.close();
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
