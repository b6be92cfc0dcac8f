import type { ChangeEvent } from '@otto/api-contract';
import type { Database, SqliteStore, StoreInfo } from '@otto/sqlite-store';
import type { SeedOptions } from './database/seed';
import type { SeedData } from './database/seed-data';
import type { Logger } from './logger';
import type { MockApiExtension } from './runtime/extensions';
import type { ControlShelf, MockOverride } from './runtime/scenarios';
import type { SqlStore } from './sql/types';

/**
 * Options of `createMockApi`.
 * @example
 * const options: MockApiOptions = { seed: { count: 50, fakerSeed: 1 }, now: () => Date.UTC(2026, 0, 1) };
 */
export interface MockApiOptions {
  /**
   * The database. It is opened if needed, migrated, and seeded when empty. A store you pass in
   * stays yours: `api.close()` leaves it open.
   * @default a fresh in-memory store
   */
  store?: SqliteStore;
  /**
   * What to fill the database with when the customers table is empty: random customers (with a
   * history of jobs) made now with faker (`SeedOptions`), data made ahead of time (`{ data }`,
   * see `exportSeedData`; its dates move to now), a whole database file made ahead of time
   * (`{ file }`, see `exportSeedDatabase`: no inserts, only its dates move), or `false` for none.
   * @default { count: 500, jobs: true }
   */
  seed?: SeedOptions | { data: SeedData | (() => Promise<SeedData>) } | { file: Uint8Array | (() => Promise<Uint8Array>) } | false;
  /**
   * The clock, in epoch milliseconds; created_dt and modified_dt come from it.
   * @default Date.now
   */
  now?: () => number;
  /**
   * The moment a first-start database file's dates move to (`{ file }` seeds, see
   * `settleSeedDatabase`), when it must be one the caller chose (a page that showed the first
   * screen before the database existed). Used only when it is at most a minute before `now()`.
   * @default now()
   */
  seedMoment?: number;
  /**
   * Where messages go ('Invalid filterJson param' among them).
   * @default createLogger() (tag 'otto', debug off)
   */
  logger?: Logger;
  /**
   * Told about every committed write, like a listener added with `api.onChange` (with
   * `extensions`, also about your routes' writes: see `MockChangeEvent`).
   */
  onChange?: ChangeListener;
  /**
   * Routes and migrations of your own, answered next to Otto's by the same pipeline (zod checks, a
   * transaction per write, the JSON error shape, the change feed). See `defineExtension`.
   * @example
   * const api = await createMockApi({ extensions: [notesExtension] });
   */
  extensions?: readonly MockApiExtension[];
  /**
   * Scenarios of your own by name, next to the built-in ones (`slow`, `offline`, `server-error`,
   * `unauthorized`, `empty`), for `PUT /api/__otto/scenario { "name" }` and `?otto-scenario=`.
   * @example
   * const api = await createMockApi({ scenarios: { 'no-jobs': [{ method: 'GET', path: '/jobs', body: [] }] } });
   */
  scenarios?: Readonly<Record<string, readonly MockOverride[]>>;
  /**
   * Where the control routes keep the scenario in force and the snapshots. The DB worker keeps
   * them in Cache Storage, so that they outlast a reload.
   * @default memoryShelf()
   */
  controlShelf?: ControlShelf;
  /**
   * Whether this API answers `/api/__otto/scenario` and applies the scenario in force. `false`
   * where something in front of it does (the DB worker, before its queue).
   * @default true
   */
  applyScenarios?: boolean;
  /**
   * Whether the control routes (`/api/__otto/…`: scenarios, fixtures, snapshots) answer at all.
   * They are for tests and stories: a server that keeps a team's data turns them off, and every
   * control route then answers 404 in words (decision 0164).
   * @default true
   */
  testControls?: boolean;
  /**
   * Whether each write is kept in the change log that devices pull from (`GET /api/sync/pull`).
   * Where nothing pulls (the app on its own, a device's copy) turn it off: a write then costs no
   * log, and a pull, should one come, answers with everything (decision 0167). Turned on again
   * (a file that a server now serves), the log is complete from that moment: a device that pulled
   * before takes everything once.
   * @default true
   */
  changeLog?: boolean;
}

/**
 * Told about one committed write: `{ entity, kind, ids }` (see `ChangeEvent` in
 * `@otto/api-contract`). Called synchronously after the commit, before the write's response is
 * returned; keep it quick (post a message, queue work).
 * @example
 * const listener: ChangeListener = (event) => channel.postMessage(event);
 */
export type ChangeListener = (event: ChangeEvent) => void;

/**
 * A change-feed event: one of Otto's (`ChangeEvent` of `@otto/api-contract`), or one published by a
 * route of your own, whose `entity` is the name it gives (`'note'`).
 * @example
 * const event: MockChangeEvent = { entity: 'note', kind: 'created', ids: ['1'] };
 */
export type MockChangeEvent = ChangeEvent | { entity: string; kind: 'created' | 'updated' | 'deleted'; ids: string[] };

/**
 * A running mock backend: a function from a standard Request to a Response.
 * @example
 * const api: MockApi = await createMockApi();
 * const res = await api.fetch(new Request('http://localhost/api/customers/1'));
 */
export interface MockApi {
  /** Answers one request to /api/…; never throws, never answers 500 for bad input. */
  fetch(request: Request): Promise<Response>;
  /** The store behind the API (for backups, diagnostics and tests). */
  readonly store: SqliteStore;
  /** Where the data lives and which SQLite runs it. */
  readonly info: StoreInfo & { seeded: { customers: number; jobs: number }; schemaVersion: number };
  /**
   * Calls `listener` after every committed write (customer and job create, update, patch, status
   * move) with what changed; never for a write that failed or was rolled back. Returns the
   * unsubscribe function.
   * @example
   * const stop = api.onChange((e) => console.log(e.entity, e.kind, e.ids)); // customer created ['501']
   */
  onChange<E extends MockChangeEvent = ChangeEvent>(listener: (event: E) => void): () => void;
  /** Stops answering; closes the store when the API opened it. */
  close(): Promise<void>;
}

/**
 * Options of `createMockApi` on a database other than a SQLite store (decision 0122).
 * @example
 * const api = await createMockApi({ database: postgresDatabase({ connectionString: process.env.DATABASE_URL! }), seed: false });
 */
export interface MockApiOnDatabaseOptions<Shown extends object = object> extends Omit<MockApiOptions, 'store'> {
  /**
   * The database to run on instead of a SQLite store: PostgreSQL with
   * `postgresDatabase({ connectionString })` from `@otto/mock-backend/node`. The API is the same
   * router and handlers, answered from that database; `api.info` says which.
   */
  database: ApiDatabase<Shown>;
}

/**
 * A running API whose database shows `Shown` (`store` and `info` on SQLite, `info` on PostgreSQL).
 * @example
 * const api: ApiOn<{ info: { mode: 'postgres' } }> = await createPostgresApi({ connectionString });
 */
export type ApiOn<Shown extends object> = Omit<MockApi, 'store' | 'info'> & Shown;

/**
 * A database `createMockApi` can run on (decision 0122): it opens, migrates and seeds itself, and
 * gives back the units of work (`SqlStore`, whose dialect says what its SQL does differently).
 * SQLite's is made from `store`; PostgreSQL's by `postgresDatabase` (`@otto/mock-backend/node`).
 * @example
 * const api = await createMockApi({ database: postgresDatabase({ connectionString, poolSize: 20 }) });
 */
export interface ApiDatabase<Shown extends object = object> {
  open(context: ApiDatabaseContext): Promise<OpenApiDatabase<Shown>>;
}

/**
 * What a database is told when the API opens it.
 * @example
 * const opened = await database.open({ seed: false, now: Date.now, seedMoment: Date.now, logger, extensions: [], tell: () => {} });
 */
export interface ApiDatabaseContext {
  /** `MockApiOptions.seed`: what to fill an empty database with. */
  seed: MockApiOptions['seed'];
  now: () => number;
  /** The moment a first-start file's dates move to (see `MockApiOptions.seedMoment`). */
  seedMoment: () => number;
  logger: Logger;
  /** Routes and migrations of your own (a database that cannot run them refuses them here). */
  extensions: readonly MockApiExtension[];
  /** Tells this API's change-feed listeners about a write made through another process. */
  tell(event: MockChangeEvent): void;
}

/**
 * An opened database, as the API runs on it.
 * @example
 * const route = createRouter({ sql: opened.sql, db: opened.extensionDb, ... });
 */
export interface OpenApiDatabase<Shown extends object> {
  /** The units of work every request runs in. */
  sql: SqlStore;
  /** The synchronous SQLite connection extensions' handlers get as `db`. */
  extensionDb: Database;
  /** What the API object shows of the database (`store`, `info`). */
  shown: Shown;
  /** Tells the other processes on the same database about a write this one committed. */
  publish?(event: MockChangeEvent): void;
  /** Closes what `open` opened (a store you passed in stays open). */
  close(): Promise<void>;
}
