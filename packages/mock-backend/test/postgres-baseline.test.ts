import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres, sharedTestPostgres } from '@otto/postgres-testing/vitest';
import pgDriver from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postgresBaseline, postgresMigrations } from '../src/postgres/migrations';
import { postgresStepsBeforeBaseline } from '../src/postgres/migrations-before-baseline';
import { runPostgresMigrations } from '../src/postgres/run-migrations';

/**
 * Decision 0122: a new PostgreSQL database is made from the baseline (the schema as of step 15 in
 * one step), an older one climbs the released steps. Both must end in exactly the same schema:
 * tables, columns (names, types, order, defaults, generated expressions, identity), constraints,
 * indexes, triggers, functions (their whole definitions), sequences, the rows the steps put in the
 * counter tables, and the recorded versions. Compared from pg_catalog and information_schema, and
 * from `pg_dump --schema-only` when it is installed next to the server.
 */

/** Catalog queries whose answers describe the schema; none shows an oid or anything a name of a database holds. */
const catalog: Record<string, string> = {
  relations: `SELECT relname, relkind, relpersistence FROM pg_class WHERE relnamespace = 'public'::regnamespace ORDER BY 1`,
  // A column's place among the live columns: a step that dropped a column leaves a gap in attnum
  // (ordinal_position), which neither SELECT * nor any query sees.
  columns: `SELECT table_name, column_name, row_number() OVER (PARTITION BY table_name ORDER BY ordinal_position) AS place,
      data_type, is_nullable, column_default, collation_name, is_identity, identity_generation, identity_start, identity_increment,
      is_generated, generation_expression
    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, place`,
  constraints: `SELECT conrelid::regclass::text AS on_table, conname, contype, pg_get_constraintdef(oid) AS def, condeferrable, condeferred, convalidated
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
  indexes: `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2`,
  triggers: `SELECT tgrelid::regclass::text AS on_table, tgname, tgenabled, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2`,
  functions: `SELECT proname, pg_get_function_identity_arguments(oid) AS args, pg_get_functiondef(oid) AS def
    FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1, 2`,
  sequences: `SELECT sequencename, data_type, start_value, min_value, max_value, increment_by, cycle, cache_size, last_value
    FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`,
  views: `SELECT viewname, definition FROM pg_views WHERE schemaname = 'public' ORDER BY 1`,
  versions: 'SELECT version, name FROM otto_schema_migrations ORDER BY version',
  jobCounts: 'SELECT * FROM job_counts ORDER BY status, shard',
  businessSettings: 'SELECT * FROM business_settings',
  customerCount: 'SELECT * FROM customer_count ORDER BY k, shard',
  versionStamp: 'SELECT * FROM version_stamp',
  emptyTables: `SELECT (SELECT count(*) FROM customers) + (SELECT count(*) FROM jobs) + (SELECT count(*) FROM paid_days)
    + (SELECT count(*) FROM customer_days) + (SELECT count(*) FROM invoices) + (SELECT count(*) FROM payments) + (SELECT count(*) FROM fts_deferred)
    + (SELECT count(*) FROM imports) + (SELECT count(*) FROM import_rows) + (SELECT count(*) FROM job_moves)
    + (SELECT count(*) FROM request_log) AS n`,
};

async function withClient<T>(url: string, fn: (client: pgDriver.Client) => Promise<T>): Promise<T> {
  const client = new pgDriver.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function dumpCatalog(url: string): Promise<Record<string, unknown[]>> {
  return withClient(url, async (client) => {
    const dump: Record<string, unknown[]> = {};
    for (const [name, sql] of Object.entries(catalog)) dump[name] = (await client.query(sql)).rows;
    return dump;
  });
}

/** pg_dump next to the server's binaries, when installed. */
function findPgDump(): string | null {
  const dirs = [process.env.OTTO_POSTGRES_BIN ?? ''];
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))) dirs.push(join('/usr/lib/postgresql', v, 'bin'));
  }
  const dir = dirs.find((d) => d && existsSync(join(d, 'pg_dump')));
  return dir ? join(dir, 'pg_dump') : null;
}

/** The schema as pg_dump writes it, without the per-run `\restrict` key lines newer minor releases add. */
function pgDumpSchema(pgDump: string, url: string): string {
  const run = spawnSync(pgDump, ['--schema-only', '--no-owner', '--no-privileges', url], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`pg_dump failed: ${run.stderr}`);
  return run.stdout
    .split('\n')
    .filter((line) => !/^\\(un)?restrict /.test(line))
    .join('\n');
}

describeIfPostgres('the PostgreSQL baseline', () => {
  let pg: TestPostgres;
  let bySteps: string;
  let fromBaseline: string;
  let climbed: string;
  let applied: { bySteps: number[]; fromBaseline: number[] };

  beforeAll(async () => {
    pg = await sharedTestPostgres();
    bySteps = await pg.createDatabase('otto_by_steps');
    fromBaseline = await pg.createDatabase('otto_from_baseline');
    climbed = await pg.createDatabase('otto_climbed');
    applied = {
      bySteps: (await withClient(bySteps, (client) => runPostgresMigrations(client, postgresMigrations))).applied,
      fromBaseline: (await withClient(fromBaseline, (client) => runPostgresMigrations(client, postgresMigrations, { baseline: postgresBaseline }))).applied,
    };
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });

  it('stands for every step before it, and the steps after it follow on', () => {
    expect(postgresBaseline.version).toBe(postgresStepsBeforeBaseline.length);
    expect(postgresStepsBeforeBaseline.map((s) => s.version)).toEqual(Array.from({ length: postgresBaseline.version }, (_, i) => i + 1));
    expect(postgresBaseline.names).toEqual(postgresStepsBeforeBaseline.map((s) => s.name));
    expect(postgresMigrations.map((s) => s.version)).toEqual(Array.from({ length: postgresMigrations.length }, (_, i) => i + 1));
  });

  it('makes a new database with exactly the schema the released steps make, and records the same versions', async () => {
    expect(applied.bySteps).toEqual(postgresMigrations.map((s) => s.version));
    expect(applied.fromBaseline).toEqual(postgresMigrations.map((s) => s.version));
    const expected = await dumpCatalog(bySteps);
    const actual = await dumpCatalog(fromBaseline);
    // Not vacuous: the schema is all there.
    expect(expected.relations?.length).toBeGreaterThan(40);
    expect(expected.functions?.length).toBeGreaterThan(10);
    expect(expected.triggers?.length).toBeGreaterThan(10);
    for (const name of Object.keys(catalog)) expect(actual[name], name).toEqual(expected[name]);
  }, 120_000);

  it('writes the same pg_dump of both, when pg_dump is installed', async (context) => {
    const pgDump = findPgDump();
    if (!pgDump) return context.skip('pg_dump is not installed next to the server');
    const expected = pgDumpSchema(pgDump, bySteps);
    expect(expected).toMatch(/CREATE TABLE public\.customers/);
    expect(pgDumpSchema(pgDump, fromBaseline)).toBe(expected);
  }, 60_000);

  it('still brings a database made before the baseline to the latest version through the released steps', async () => {
    await withClient(climbed, (client) => runPostgresMigrations(client, postgresMigrations.slice(0, 6)));
    const rest = await withClient(climbed, (client) => runPostgresMigrations(client, postgresMigrations, { baseline: postgresBaseline }));
    expect(rest.applied).toEqual(postgresMigrations.slice(6).map((s) => s.version));
    const expected = await dumpCatalog(bySteps);
    const actual = await dumpCatalog(climbed);
    for (const name of Object.keys(catalog)) expect(actual[name], name).toEqual(expected[name]);
  }, 120_000);
});
