// The vitest side of @otto/postgres-testing: suites that need PostgreSQL. They fail, saying what to
// install, where there is none; they are skipped only when asked (OTTO_SKIP_POSTGRES=1), and then
// reported as skipped. Only code run by vitest imports this; the rest is in ./index.js.
import { randomBytes } from 'node:crypto';
import { describe, inject, it } from 'vitest';
import { databaseOnCluster, postgresAvailable, postgresMissingMessage, postgresSkipped, startTestPostgres } from './index.js';

/**
 * A database of this file's own on the run's shared cluster (./global-setup.js in the package's
 * vitest config), or a cluster of its own when the run has none. `stop()` leaves the shared
 * cluster running; a file that halts or restarts its server uses `startTestPostgres` instead.
 * @returns {Promise<import('./index.d.ts').TestPostgres>}
 */
export async function sharedTestPostgres() {
  const cluster = /** @type {{ host: string, port: number } | undefined} */ (inject(/** @type {never} */ ('ottoPostgresCluster')));
  if (!cluster) return startTestPostgres();
  return databaseOnCluster(cluster, randomBytes(5).toString('hex'));
}

/**
 * `describe` for suites that need a PostgreSQL server: runs them when its binaries are found;
 * skips them (reported as skipped, saying why) only with OTTO_SKIP_POSTGRES=1; otherwise fails
 * with one test saying what to install.
 * @param {string} name
 * @param {() => void} fn
 * @example
 * describeIfPostgres('postgres store', () => { ... });
 */
export function describeIfPostgres(name, fn) {
  if (postgresSkipped) {
    console.warn(`[skipped] ${name}: OTTO_SKIP_POSTGRES=1`);
    describe.skip(name, fn);
    return;
  }
  if (postgresAvailable) {
    describe(name, fn);
    return;
  }
  describe(name, () => {
    it('needs PostgreSQL (or OTTO_SKIP_POSTGRES=1 to skip this suite)', () => {
      throw new Error(postgresMissingMessage);
    });
  });
}
