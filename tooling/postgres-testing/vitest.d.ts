/**
 * `describe` for suites that need a PostgreSQL server: runs them when its binaries are found;
 * skips them (reported as skipped, saying why) only with OTTO_SKIP_POSTGRES=1; otherwise fails
 * with one test saying what to install.
 * @example
 * describeIfPostgres('postgres store', () => { ... });
 */
export declare function describeIfPostgres(name: string, fn: () => void): void;
