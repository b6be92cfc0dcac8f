/**
 * `describe` for suites that need a PostgreSQL server: runs them when its binaries are found;
 * skips them (reported as skipped, saying why) only with OTTO_SKIP_POSTGRES=1; otherwise fails
 * with one test saying what to install.
 * @example
 * describeIfPostgres('postgres store', () => { ... });
 */
export declare function describeIfPostgres(name: string, fn: () => void): void;

/**
 * A database of this file's own on the run's shared test PostgreSQL cluster (`@otto/postgres-testing/global-setup`
 * in the vitest config), or a cluster of its own when the run has none. Its halt, start and restart throw.
 */
export declare function sharedTestPostgres(): Promise<import('./index.d.ts').TestPostgres>;

declare module 'vitest' {
  export interface ProvidedContext {
    ottoPostgresCluster: { host: string; port: number };
  }
}
