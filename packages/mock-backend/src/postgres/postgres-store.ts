import { StoreError, type SqlValue, type StoreErrorCode } from '@otto/sqlite-store';
import type * as PgNamespace from 'pg';
import type { Pool, PoolClient, Client, QueryResult } from 'pg';
import type { Logger } from '../logger';
import type { SqlClient, SqlStore, TransactionOptions } from '../sql/types';
import { postgresBaseline, postgresMigrations } from './migrations';
import { runPostgresMigrations } from './run-migrations';
import { toPostgresPlaceholders } from './placeholders';
import { postgresDialect } from './postgres-dialect';

/**
 * Options of `createPostgresStore`.
 * @example
 * const store = await createPostgresStore({ connectionString: 'postgres://otto@127.0.0.1:5432/otto' });
 */
export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  connectionString: string;
  /** Connections of the pool (default 10). */
  poolSize?: number;
  logger?: Logger;
  /** Longest a statement may run, in ms (default 30 000); longer ones fail with BUSY. */
  statementTimeoutMs?: number;
  /** Longest to wait for a connection, in ms (default 5 000); longer fails with BUSY. */
  connectionTimeoutMs?: number;
  /** Tries of a unit of work that lost a serialization conflict or a deadlock (default 4). */
  maxAttempts?: number;
}

/**
 * The API's data on PostgreSQL: `SqlStore` on a connection pool, plus schema migration and
 * LISTEN/NOTIFY for a change feed shared by several server processes.
 */
export interface PostgresStore extends SqlStore {
  /** Brings the schema to the latest version (safe to run from several processes at once). */
  migrate(): Promise<{ applied: number[] }>;
  /** The latest schema version applied (0 for an empty database). */
  schemaVersion(): Promise<number>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`, on a dedicated connection that
   * reconnects (and listens again) when it drops. Returns a function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void, onResumed?: () => void): Promise<() => Promise<void>>;
  /** NOTIFY `channel` with `payload` (outside any unit of work; inside one, `SELECT pg_notify(?, ?)`). */
  notify(channel: string, payload: string): Promise<void>;
  /** Ends the pool and the listening connection. */
  close(): Promise<void>;
}

type PgModule = typeof PgNamespace;

/** Loads `pg` only when a PostgreSQL store is made: the browser bundles never see it. */
async function loadPg(): Promise<PgModule> {
  try {
    const mod = (await import('pg')) as PgModule & { default?: PgModule };
    return mod.default ?? mod;
  } catch (cause) {
    throw new StoreError('OPEN_FAILED', 'A PostgreSQL database needs the "pg" package: install it (npm install pg) next to @otto/mock-backend.', {
      cause,
    });
  }
}

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** pg's type OIDs whose text we turn into JavaScript numbers: int8 (count(*), BIGINT ids and epoch ms) and numeric (sum of a bigint). */
const int8Oid = 20;
const numericOid = 1700;

/** Where the connection string points, for messages (never the password). */
export function describeServer(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = decodeURIComponent(url.hostname) || url.searchParams.get('host') || 'localhost';
    return `${host}:${url.port || '5432'}`;
  } catch {
    return 'the configured server';
  }
}

const connectionErrnos: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EPIPE: 'connection closed',
  ENOENT: 'no such socket',
};

/** Why an error means the server cannot be reached now, in words; `null` when it does not. */
export function unreachableReason(error: unknown): string | null {
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const reason = unreachableReason(inner);
      if (reason) return reason;
    }
  }
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  if (connectionErrnos[code]) return connectionErrnos[code];
  if (code === '57P01') return 'the server is shutting down';
  if (code === '57P02') return 'the server crashed';
  if (code === '57P03') return 'the server is starting up or shutting down';
  if (code === '53300') return 'too many connections';
  if (code.startsWith('08')) return `connection failure ${code}`;
  if (/timeout exceeded when trying to connect|connection timeout/i.test(message)) return 'no connection within the timeout';
  if (/Connection terminated|Client has encountered a connection error|connection is closed|not queryable/i.test(message)) {
    return 'connection lost';
  }
  return null;
}

/** A StoreError for what pg threw. */
export function toStoreError(error: unknown, server: string, sql?: string): StoreError {
  if (error instanceof StoreError) return error;
  const reason = unreachableReason(error);
  if (reason) return new StoreError('BUSY', `PostgreSQL is not reachable at ${server} (${reason}). Try again in a moment.`, { cause: error });
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(error);
  let storeCode: StoreErrorCode = 'QUERY_FAILED';
  let text = message;
  if (code.startsWith('23')) storeCode = 'CONSTRAINT';
  else if (code === '53100') {
    storeCode = 'STORAGE_FULL';
    text = `PostgreSQL at ${server} has no disk space left: ${message}`;
  } else if (code === '57014') {
    storeCode = 'BUSY';
    text = `PostgreSQL at ${server} cancelled a statement that ran too long (statement_timeout): ${message}`;
  } else if (code === '40001' || code === '40P01') {
    storeCode = 'BUSY';
    text = `PostgreSQL at ${server} kept finding conflicting writes (${code === '40001' ? 'serialization failure' : 'deadlock'}); try again: ${message}`;
  }
  return new StoreError(storeCode, sql ? `${text} (in: ${sql.trim().slice(0, 300)})` : text, { cause: error });
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Opens a PostgreSQL store: a pool (`poolSize` connections, default 10) that recovers by itself
 * when the server comes back; while it is down every unit of work fails with StoreError BUSY
 * ("PostgreSQL is not reachable at host:port (connection refused)"), which the router answers 503.
 * Does not migrate: call `migrate()`.
 * @example
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL! });
 * await store.migrate();
 * const n = await store.transaction((db) => db.get<{ n: number }>('SELECT n FROM customer_count'), { readOnly: true });
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const pg = await loadPg();
  const { connectionString, poolSize = 10, logger = silentLogger } = options;
  const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
  const connectionTimeoutMs = options.connectionTimeoutMs ?? 5_000;
  const maxAttempts = options.maxAttempts ?? 4;
  const server = describeServer(connectionString);

  const toNumber = (text: string) => Number(text);
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === int8Oid || oid === numericOid ? toNumber : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
  };
  const clientConfig = {
    connectionString,
    types,
    connectionTimeoutMillis: connectionTimeoutMs,
    statement_timeout: statementTimeoutMs,
    idle_in_transaction_session_timeout: Math.max(statementTimeoutMs * 2, 60_000),
    application_name: 'otto-mock-server',
  };
  const pool: Pool = new pg.Pool({ ...clientConfig, max: poolSize, idleTimeoutMillis: 30_000 });
  // An idle connection the server dropped emits 'error' on the pool; the pool has already discarded it.
  pool.on('error', (error) => logger.warn(`PostgreSQL dropped an idle connection (${server}): ${error.message}`));
  let closed = false;

  function clientFor(conn: PoolClient | Client, isOpen: () => boolean): SqlClient {
    const query = async (sql: string, params: readonly SqlValue[] = []): Promise<QueryResult> => {
      if (!isOpen()) throw new StoreError('QUERY_FAILED', `a statement ran after its unit of work ended: ${sql.trim().slice(0, 200)}`);
      try {
        return await conn.query(toPostgresPlaceholders(sql), params as unknown[]);
      } catch (error) {
        throw Object.assign(error as object, { ottoSql: sql });
      }
    };
    return {
      dialect: postgresDialect,
      all: async <T>(sql: string, params?: readonly SqlValue[]) => (await query(sql, params)).rows as T[],
      get: async <T>(sql: string, params?: readonly SqlValue[]) => (await query(sql, params)).rows[0] as T | undefined,
      run: async (sql: string, params?: readonly SqlValue[]) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    };
  }

  async function connect(): Promise<PoolClient> {
    if (closed) throw new StoreError('NOT_INITIALIZED', 'The PostgreSQL store is closed.');
    try {
      return await pool.connect();
    } catch (error) {
      throw toStoreError(error, server);
    }
  }

  /** Whether PostgreSQL, the driver or the store threw `error` (rather than the unit's own code). */
  function fromDatabase(error: unknown): boolean {
    return error instanceof StoreError || error instanceof pg.DatabaseError || unreachableReason(error) !== null || (error as { ottoSql?: string } | null)?.ottoSql !== undefined;
  }

  async function transaction<T>(fn: (db: SqlClient) => Promise<T>, txOptions: TransactionOptions = {}): Promise<T> {
    const begin = txOptions.readOnly ? 'BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN';
    for (let attempt = 1; ; attempt++) {
      const conn = await connect();
      let open = true;
      let broken: Error | undefined;
      try {
        await conn.query(begin);
        const result = await fn(clientFor(conn, () => open));
        await conn.query('COMMIT');
        return result;
      } catch (error) {
        if (unreachableReason(error)) broken = error as Error;
        else {
          try {
            await conn.query('ROLLBACK');
          } catch (rollbackError) {
            broken = rollbackError as Error;
          }
        }
        if (isRetryable(error) && attempt < maxAttempts) {
          logger.debug(`PostgreSQL unit of work retried after ${(error as { code?: string }).code} (attempt ${attempt})`);
          await sleep(5 * 2 ** attempt + Math.random() * 10);
          continue;
        }
        // What the handler threw (an ApiError: 404, 409…) goes on as it is; what PostgreSQL or the
        // connection threw becomes a StoreError the router answers in words.
        if (!fromDatabase(error)) throw error;
        throw toStoreError(error, server, (error as { ottoSql?: string } | null)?.ottoSql);
      } finally {
        open = false;
        conn.release(broken);
      }
    }
  }

  // LISTEN/NOTIFY on one dedicated connection, reconnected with backoff when it drops.
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let listener: Client | null = null;
  let listenerReady: Promise<Client> | null = null;
  let reconnectDelay = 100;
  /** Told when the listening connection is back after a drop: notifications sent meanwhile were missed. */
  const resumedHandlers = new Set<() => void>();
  let listenedBefore = false;

  async function openListener(): Promise<Client> {
    const client = new pg.Client(clientConfig);
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload ?? '');
        } catch (error) {
          logger.error(`A handler of PostgreSQL channel ${message.channel} threw`, error);
        }
      }
    });
    const dropped = (error?: Error) => {
      if (listener !== client) return;
      listener = null;
      listenerReady = null;
      if (closed || handlers.size === 0) return;
      logger.warn(`PostgreSQL change feed connection lost (${server})${error ? `: ${error.message}` : ''}; reconnecting`);
      scheduleReconnect();
    };
    client.on('error', dropped);
    client.on('end', () => dropped());
    await client.connect();
    for (const channel of handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
    listener = client;
    reconnectDelay = 100;
    if (listenedBefore) {
      for (const resumed of resumedHandlers) {
        try {
          resumed();
        } catch (error) {
          logger.error('A handler of a resumed PostgreSQL change feed threw', error);
        }
      }
    }
    listenedBefore = true;
    return client;
  }

  function scheduleReconnect() {
    const delay = reconnectDelay;
    reconnectDelay = Math.min(reconnectDelay * 2, 5_000);
    setTimeout(() => {
      if (closed || listener || listenerReady || handlers.size === 0) return;
      ensureListener().catch((error: unknown) => {
        logger.debug(`PostgreSQL change feed reconnect failed: ${(error as Error).message}`);
        scheduleReconnect();
      });
    }, delay).unref?.();
  }

  function ensureListener(): Promise<Client> {
    if (listener) return Promise.resolve(listener);
    listenerReady ??= openListener().catch((error: unknown) => {
      listenerReady = null;
      throw toStoreError(error, server);
    });
    return listenerReady;
  }

  async function listen(channel: string, onMessage: (payload: string) => void, onResumed?: () => void): Promise<() => Promise<void>> {
    if (onResumed) resumedHandlers.add(onResumed);
    let set = handlers.get(channel);
    const isNew = !set;
    if (!set) handlers.set(channel, (set = new Set()));
    set.add(onMessage);
    try {
      const client = await ensureListener();
      if (isNew && client === listener) await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (error) {
      // Keep the subscription: the listener connects (and listens) as soon as the server is back.
      scheduleReconnect();
      logger.warn(`PostgreSQL change feed not connected yet: ${(error as Error).message}`);
    }
    return async () => {
      if (onResumed) resumedHandlers.delete(onResumed);
      set.delete(onMessage);
      if (set.size > 0 || handlers.get(channel) !== set) return;
      handlers.delete(channel);
      await listener?.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => {});
    };
  }

  async function notify(channel: string, payload: string): Promise<void> {
    await transaction((db) => db.run('SELECT pg_notify(?, ?)', [channel, payload]).then(() => undefined));
  }

  const store: PostgresStore = {
    dialect: postgresDialect,
    transaction,
    listen,
    notify,
    async migrate() {
      const conn = await connect();
      try {
        return await runPostgresMigrations(conn, postgresMigrations, { baseline: postgresBaseline, logger });
      } catch (error) {
        const wrapped = toStoreError(error, server);
        throw wrapped.code === 'QUERY_FAILED' ? new StoreError('MIGRATION_FAILED', wrapped.message, { cause: error }) : wrapped;
      } finally {
        conn.release();
      }
    },
    async schemaVersion() {
      return transaction(async (db) => {
        const table = await db.get<{ t: string | null }>("SELECT to_regclass('otto_schema_migrations')::text AS t");
        if (!table?.t) return 0;
        return (await db.get<{ v: number | null }>('SELECT max(version) AS v FROM otto_schema_migrations'))?.v ?? 0;
      }, { readOnly: true });
    },
    async close() {
      if (closed) return;
      closed = true;
      handlers.clear();
      const l = listener;
      listener = null;
      await l?.end().catch(() => {});
      await pool.end();
    },
  };
  return store;
}
