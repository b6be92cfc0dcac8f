// The vitest side of @otto/postgres-testing: suites that need PostgreSQL, skipped (saying why) where
// there is none. Only code run by vitest imports this; the rest is in ./index.js.
import { describe, it } from 'vitest';
import { postgresAvailable, postgresMissingMessage, postgresRequired } from './index.js';

/**
 * `describe` for suites that need a PostgreSQL server: skips them, saying why, when the binaries are
 * missing; fails instead when OTTO_REQUIRE_POSTGRES=1.
 * @param {string} name
 * @param {() => void} fn
 * @example
 * describeIfPostgres('postgres store', () => { ... });
 */
export function describeIfPostgres(name, fn) {
  if (postgresAvailable) {
    describe(name, fn);
    return;
  }
  if (postgresRequired) {
    describe(name, () => {
      it('needs PostgreSQL (OTTO_REQUIRE_POSTGRES=1)', () => {
        throw new Error(postgresMissingMessage);
      });
    });
    return;
  }
  console.warn(`[skipped] ${name}: ${postgresMissingMessage}`);
  describe.skip(name, fn);
}
