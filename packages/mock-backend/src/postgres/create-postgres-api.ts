import type { ChangeEvent } from '@otto/api-contract';
import { createMockApi } from '../create-mock-api';
import type { SeedData } from '../database/seed-data';
import type { SeedOptions } from '../database/seed';
import type { Logger } from '../logger';
import type { ChangeListener, MockChangeEvent } from '../types';
import { postgresDatabase, type PostgresShown } from './postgres-database';

export { changeChannel, redactConnectionString } from './postgres-database';

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
  readonly info: PostgresShown['info'];
  /** Calls `listener` after every committed write made through any API process on this database. */
  onChange<E extends MockChangeEvent = ChangeEvent>(listener: (event: E) => void): () => void;
  close(): Promise<void>;
}

/**
 * Opens a pool on PostgreSQL, migrates the schema (once, whichever process comes first), seeds an
 * empty database, and answers the API's requests from it. Writes made through other processes on
 * the same database reach `onChange` through LISTEN/NOTIFY. The same as
 * `createMockApi({ database: postgresDatabase({ connectionString, poolSize }), … })` (decision 0122).
 * @example
 * const api = await createPostgresApi({ connectionString: process.env.DATABASE_URL! });
 */
export function createPostgresApi(options: PostgresApiOptions): Promise<PostgresApi> {
  const { connectionString, poolSize, ...apiOptions } = options;
  return createMockApi({ ...apiOptions, testControls: false, database: postgresDatabase({ connectionString, ...(poolSize !== undefined ? { poolSize } : {}) }) });
}
