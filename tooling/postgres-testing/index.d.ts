/** Whether this machine can start a test PostgreSQL (initdb and pg_ctl were found). */
/** The folder holding initdb and pg_ctl (OTTO_POSTGRES_BIN, the newest /usr/lib/postgresql/<n>/bin, else PATH), or null. */
export declare function findPostgresBin(): string | null;
export declare const postgresAvailable: boolean;
/**
 * Whether the PostgreSQL tests are skipped on purpose (OTTO_SKIP_POSTGRES=1, for a machine without
 * PostgreSQL). Without it a missing PostgreSQL fails them: a test that cannot run is not a pass.
 */
export declare const postgresSkipped: boolean;
/** Why PostgreSQL tests cannot run here, and how to fix it. */
export declare const postgresMissingMessage: string;

/** How to start a test PostgreSQL; tests need none of it. */
export interface TestPostgresOptions {
  /**
   * Keep PostgreSQL's own durability settings (fsync, synchronous_commit, full_page_writes on)
   * instead of turning them off as tests do: for benchmarks, whose figures should be a real server's.
   */
  durable?: boolean;
  /** More server settings, each passed as `-c key=value` (e.g. `{ max_connections: 200 }`). */
  settings?: Record<string, string | number>;
  /** The temporary directory's name prefix (default `otto-pg-`). */
  dirPrefix?: string;
}

/** A test PostgreSQL server. */
export interface TestPostgres {
  /** postgres://otto@127.0.0.1:<port>/otto */
  readonly connectionString: string;
  readonly host: string;
  readonly port: number;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
  /** Stops the server, keeping its data (to test what clients see while it is down). */
  halt(): Promise<void>;
  /** Starts a halted server again, same port, same data. */
  start(): Promise<void>;
  /** halt() then start(). */
  restart(): Promise<void>;
  /** Creates another empty database on the same server and returns its connection string. */
  createDatabase(name: string): Promise<string>;
}

/**
 * Starts a throwaway PostgreSQL server with one database (`otto`, user `otto`, trust auth).
 * @example
 * const pg = await startTestPostgres();
 * const store = await createPostgresStore({ connectionString: pg.connectionString });
 * // …
 * await pg.stop();
 */
export declare function startTestPostgres(options?: TestPostgresOptions): Promise<TestPostgres>;

/** A TCP port free on 127.0.0.1 a moment ago (for a server that must be told its port). */
export function freePort(): Promise<number>;

/**
 * A database of its own on a cluster another process started (one cluster shared by the test files
 * that need one); `createDatabase` names are made unique with `suffix`; halt, start and restart throw.
 */
export declare function databaseOnCluster(cluster: { host: string; port: number }, suffix: string): Promise<TestPostgres>;
