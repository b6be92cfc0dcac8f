// A vitest global setup: one test PostgreSQL cluster for every test file of the run that asks for
// one (`sharedTestPostgres` of ./vitest.js), instead of a cluster per file (about a second and a
// half of start and stop each). Nothing is started where PostgreSQL is missing or skipped: the
// files then fail or skip, saying why, as before.
import { postgresAvailable, postgresSkipped, startTestPostgres } from './index.js';

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  if (!postgresAvailable || postgresSkipped) return undefined;
  const cluster = await startTestPostgres({ dirPrefix: 'otto-pg-shared-' });
  project.provide('ottoPostgresCluster', { host: cluster.host, port: cluster.port });
  return () => cluster.stop();
}
