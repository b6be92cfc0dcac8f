/**
 * `describe` for suites that need a PostgreSQL server: skips them, saying why, when the binaries are
 * missing; fails instead when OTTO_REQUIRE_POSTGRES=1.
 * @example
 * describeIfPostgres('postgres store', () => { ... });
 */
export declare function describeIfPostgres(name: string, fn: () => void): void;
