// SQL that the PostgreSQL schema's released steps and its baseline write the same way.

/**
 * A counter trigger function written once: what the old row counted (TG_OP UPDATE or DELETE) is
 * taken away and what the new row counts (INSERT or UPDATE) is added, each only when the row is
 * counted at all. Exact by construction, whatever columns an UPDATE changes together.
 */
export function counterFunction(name: string, body: { old: string; new: string }, declare = ''): string {
  return `
    CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    ${declare ? `DECLARE ${declare}` : ''}
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        ${body.old}
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        ${body.new}
      END IF;
      RETURN NULL;
    END
    $fn$;`;
}

/**
 * Counters that every write of a kind changes (jobs per status, customers, money owed, the day's
 * totals) would make every such write wait for the one before it to commit, on one hot row. Each
 * counter is therefore kept in shards: a write adds its +1/−1 to the row of its own connection's
 * shard (`otto_shard()`: a connection runs one transaction at a time, so no two writers meet on a
 * row), and a read sums the shards. The sums are as exact as one row.
 */
const counterShards = 16;
export const shardFunctionSql = `
      CREATE FUNCTION otto_shard() RETURNS integer LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
        SELECT pg_backend_pid() % ${counterShards}
      $fn$;`;
