import { StoreError } from '@otto/sqlite-store';
import type { Client, PoolClient } from 'pg';
import type { Logger } from '../logger';
import type { PostgresBaseline, PostgresMigration } from './migrations';

/** The advisory lock key of a migration run ('otto' in ASCII), so two processes never migrate at once. */
export const migrationLockKey = 0x6f74746f;

/**
 * Brings a database to the latest step, under pg_advisory_lock: a second process starting at the
 * same time waits, then finds nothing to do. A new database (no step applied yet) is made from
 * `baseline` when given, in one transaction that records every version it stands for; then, and
 * for a database made earlier, each step not yet in otto_schema_migrations runs in its own
 * transaction (decision 0122). Says which versions it recorded.
 * @example
 * await runPostgresMigrations(conn, postgresMigrations, { baseline: postgresBaseline, logger });
 */
export async function runPostgresMigrations(
  conn: PoolClient | Client,
  steps: readonly PostgresMigration[],
  { baseline, logger }: { baseline?: PostgresBaseline | undefined; logger?: Logger | undefined } = {},
): Promise<{ applied: number[] }> {
  await conn.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
  try {
    await conn.query(`
      CREATE TABLE IF NOT EXISTS otto_schema_migrations (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    const done = new Set(
      (await conn.query<{ version: number }>('SELECT version FROM otto_schema_migrations')).rows.map((r) => Number(r.version)),
    );
    const latest = Math.max(0, baseline?.version ?? 0, ...steps.map((s) => s.version));
    const newer = [...done].filter((v) => v > latest);
    if (newer.length > 0) {
      throw new StoreError(
        'SCHEMA_TOO_NEW',
        `The PostgreSQL database has schema version ${Math.max(...newer)}, newer than this server knows (${latest}): run a newer otto-mock-server.`,
      );
    }
    const applied: number[] = [];
    if (baseline && done.size === 0) {
      const versions = baseline.names.map((name, i) => ({ version: i + 1, name }));
      await inTransaction(conn, `the baseline (schema version ${baseline.version})`, async () => {
        await conn.query(baseline.up);
        await conn.query('INSERT INTO otto_schema_migrations (version, name) SELECT * FROM unnest($1::integer[], $2::text[])', [
          versions.map((v) => v.version),
          versions.map((v) => v.name),
        ]);
      });
      for (const { version } of versions) {
        done.add(version);
        applied.push(version);
      }
      logger?.info(`PostgreSQL schema: made from the baseline (versions 1–${baseline.version})`);
    }
    for (const step of [...steps].sort((a, b) => a.version - b.version)) {
      if (done.has(step.version)) continue;
      await inTransaction(conn, `migration ${step.version} (${step.name})`, async () => {
        await conn.query(step.up);
        await conn.query('INSERT INTO otto_schema_migrations (version, name) VALUES ($1, $2)', [step.version, step.name]);
      });
      applied.push(step.version);
      logger?.info(`PostgreSQL schema: applied migration ${step.version} (${step.name})`);
    }
    return { applied };
  } finally {
    await conn.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]).catch(() => {});
  }
}

/** Runs `fn` in one transaction; a failure rolls it back and says which `what` failed. */
async function inTransaction(conn: PoolClient | Client, what: string, fn: () => Promise<void>): Promise<void> {
  await conn.query('BEGIN');
  try {
    await fn();
    await conn.query('COMMIT');
  } catch (error) {
    await conn.query('ROLLBACK').catch(() => {});
    throw Object.assign(error as object, { message: `PostgreSQL ${what} failed: ${(error as Error).message}` });
  }
}
