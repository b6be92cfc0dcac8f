import { StoreError } from '@otto/sqlite-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres } from '@otto/postgres-testing/vitest';
import { toPostgresPlaceholders } from '../src/postgres/placeholders';
import { createPostgresStore, type PostgresStore } from '../src/postgres/postgres-store';
import { postgresMigrations } from '../src/postgres/migrations';
import { postgresSearchText, searchTokens, toPostgresCustomerTsQuery, toPostgresTsQuery } from '../src/postgres/search';
import type { SqlClient } from '../src/sql/types';

const hostile = ["O'Brien", 'acme-corp', 'AND', 'OR', 'NOT', 'NEAR(a b)', '"', '""', '*', '(', ')', '^', ':', '-', '+', 'a"b*',
  'col:term', '😀', "'; DROP TABLE customers; --", '\\', '%', '_', '{}', '[', '\u0000', '\u202e', 'ß', 'İstanbul', '中文',
  "'a':* & !", '<->', '!!', '&|', ':*A', "\\'", '\u0301', 'x\u0301y', '١٢٣ 5-5-5-5', `${'a'.repeat(3000)} ${'9'.repeat(60)}`];

describe('toPostgresPlaceholders', () => {
  it('numbers ? outside strings, identifiers and comments', () => {
    expect(toPostgresPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toBe('SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)');
    expect(toPostgresPlaceholders("SELECT '?', 'it''s ?', ? FROM t")).toBe("SELECT '?', 'it''s ?', $1 FROM t");
    expect(toPostgresPlaceholders(`SELECT "a?b", ? -- what?\n, ? /* ? */`)).toBe(`SELECT "a?b", $1 -- what?\n, $2 /* ? */`);
    expect(toPostgresPlaceholders("SELECT E'\\'?', ?")).toBe("SELECT E'\\'?', $1");
    expect(toPostgresPlaceholders('SELECT $x$ ? $x$, $$?$$, ?')).toBe('SELECT $x$ ? $x$, $$?$$, $1');
    expect(toPostgresPlaceholders('SELECT 1')).toBe('SELECT 1');
  });
});

describe('search tokens and queries', () => {
  it('folds as SQLite unicode61 remove_diacritics 2 does', () => {
    expect(searchTokens(`Zoë O'Brien, acme-corp`)).toEqual(['zoe', 'o', 'brien', 'acme', 'corp']);
    expect(searchTokens('ZOË Nguyễn x\u0301y e\u0308')).toEqual(['zoe', 'nguyen', 'xy', 'e']);
    // What SQLite keeps: letters without a decomposition, Greek accents; final sigma as σ.
    expect(searchTokens('Søren Straße Łódź ΟΔΟΣ οδός')).toEqual(['søren', 'straße', 'łodz', 'οδοσ', 'οδόσ']);
    expect(searchTokens('İstanbul 中文 😀a a\u200db')).toEqual(['istanbul', '中文', 'a', 'a', 'b']);
    expect(postgresSearchText('Zoë Smith', 'zoe@acme-corp.example', '+1 555')).toBe('zoe smith zoe acme corp example 1 555');
  });
  it('makes FTS5-like tsqueries', () => {
    expect(toPostgresTsQuery(`O'Brien acme-corp`)).toBe("('o' <-> 'brien':*) & ('acme' <-> 'corp':*)");
    expect(toPostgresCustomerTsQuery('Dana 5133')).toBe("('dana':*D) & ('5133':*D | '5133':*A)");
    expect(toPostgresCustomerTsQuery('836 489')).toBe("(('836':*D) & ('489':*D)) | '836489':*A");
    expect(toPostgresCustomerTsQuery('07700900456')).toBe("('07700900456':*D | ('07700900456':*A | '7700900456':*A))");
    for (const text of ['', '   ', '"', '*', '😀', '()', '\u0000']) {
      expect(toPostgresTsQuery(text)).toBeNull();
      expect(toPostgresCustomerTsQuery(text)).toBeNull();
    }
  });
});

async function counters(db: SqlClient) {
  const jobCounts = await db.all<{ status: string; n: number }>('SELECT status, sum(n) AS n FROM job_counts GROUP BY status HAVING sum(n) <> 0 ORDER BY status');
  const actualJobs = await db.all<{ status: string; n: number }>(
    'SELECT status, count(*) AS n FROM jobs WHERE archived_dt IS NULL GROUP BY status ORDER BY status',
  );
  const customerCount = await db.get<{ n: number }>('SELECT sum(n) AS n FROM customer_count');
  const actualCustomers = await db.get<{ n: number }>('SELECT count(*) AS n FROM customers WHERE archived_dt IS NULL');
  const paid = await db.all('SELECT day, sum(cents) AS cents, sum(n) AS n FROM paid_days GROUP BY day HAVING sum(n) <> 0 ORDER BY day');
  const actualPaid = await db.all(
    "SELECT paid_dt / 86400000 AS day, sum(price_cents) AS cents, count(*) AS n FROM jobs WHERE status = 'paid' AND paid_dt IS NOT NULL AND archived_dt IS NULL GROUP BY 1 ORDER BY 1",
  );
  const days = await db.all('SELECT day, sum(n) AS n FROM customer_days GROUP BY day HAVING sum(n) <> 0 ORDER BY day');
  const actualDays = await db.all(
    'SELECT created_dt / 86400000 AS day, count(*) AS n FROM customers WHERE archived_dt IS NULL GROUP BY 1 ORDER BY 1',
  );
  expect(jobCounts).toEqual(actualJobs);
  expect(customerCount).toEqual(actualCustomers);
  expect(paid).toEqual(actualPaid);
  const open = 'FROM invoices WHERE voided_dt IS NULL AND balance_cents > 0';
  expect(await db.all('SELECT customer_id, cents, invoices, jobs FROM owed_customers WHERE invoices <> 0 ORDER BY customer_id')).toEqual(
    await db.all(`SELECT customer_id, sum(balance_cents) AS cents, count(*) AS invoices, sum(job_count) AS jobs ${open} GROUP BY 1 ORDER BY 1`),
  );
  expect(await db.all('SELECT issue_date, cents, invoices FROM owed_days WHERE invoices <> 0 ORDER BY 1')).toEqual(
    await db.all(`SELECT issue_date, sum(balance_cents) AS cents, count(*) AS invoices ${open} GROUP BY 1 ORDER BY 1`),
  );
  expect(await db.all('SELECT due_date, cents, invoices FROM owed_due WHERE invoices <> 0 ORDER BY 1')).toEqual(
    await db.all(`SELECT due_date, sum(balance_cents) AS cents, count(*) AS invoices ${open} GROUP BY 1 ORDER BY 1`),
  );
  expect(days).toEqual(actualDays);
  return { jobs: actualJobs, customers: actualCustomers?.n };
}

describeIfPostgres('PostgreSQL store', () => {
  let server: TestPostgres;
  let store: PostgresStore;

  beforeAll(async () => {
    server = await startTestPostgres();
    store = await createPostgresStore({ connectionString: server.connectionString, poolSize: 4 });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it('migrates to the latest version, and a second run is a no-op', async () => {
    const first = await store.migrate();
    expect(first.applied).toEqual(postgresMigrations.map((m) => m.version));
    expect(await store.schemaVersion()).toBe(postgresMigrations.length);
    expect((await store.migrate()).applied).toEqual([]);
    const tables = await store.transaction((db) =>
      db.all<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"),
    );
    expect(tables.map((r) => r.t)).toEqual(
      ['business_settings', 'customer_count', 'customer_days', 'customer_details', 'customers', 'fts_deferred', 'import_rows', 'imports', 'invoice_jobs', 'invoices',
        'job_counts', 'job_moves', 'jobs', 'otto_schema_migrations', 'owed_customers', 'owed_days', 'owed_due', 'paid_days', 'payments', 'request_log',
        'sync_device', 'sync_log', 'sync_outbox', 'sync_state', 'version_stamp'],
    );
  }, 60_000);

  it('two processes migrating a fresh database at once make one schema', async () => {
    const url = await server.createDatabase('otto_race');
    const a = await createPostgresStore({ connectionString: url, poolSize: 2 });
    const b = await createPostgresStore({ connectionString: url, poolSize: 2 });
    try {
      const [ra, rb] = await Promise.all([a.migrate(), b.migrate()]);
      expect([...ra.applied, ...rb.applied].sort((x, y) => x - y)).toEqual(postgresMigrations.map((m) => m.version));
      const rows = await a.transaction((db) => db.all<{ version: number }>('SELECT version FROM otto_schema_migrations ORDER BY 1'));
      expect(rows.map((r) => r.version)).toEqual(postgresMigrations.map((m) => m.version));
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);

  it('returns integers as numbers and runs read-only units read-only', async () => {
    const row = await store.transaction((db) => db.get<{ n: number; big: number; s: number }>(
      'SELECT count(*) AS n, ?::bigint AS big, sum(x) AS s FROM (VALUES (1::bigint), (2::bigint)) v(x)', [Date.UTC(2026, 0, 1)],
    ), { readOnly: true });
    expect(row).toEqual({ n: 2, big: Date.UTC(2026, 0, 1), s: 3 });
    await expect(store.transaction((db) => db.run("INSERT INTO fts_deferred VALUES ('x')"), { readOnly: true })).rejects.toBeInstanceOf(StoreError);
    const rolledBack = await store.transaction((db) => db.all('SELECT * FROM fts_deferred'));
    expect(rolledBack).toEqual([]);
  });

  it('keeps every counter exact through inserts, updates, archives and deletes', async () => {
    const day = 86_400_000;
    const t0 = Date.UTC(2026, 0, 10);
    const ids = await store.transaction(async (db) => {
      const out: number[] = [];
      for (let i = 0; i < 6; i++) {
        const row = await db.get<{ id: number }>(
          'INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES (?, ?, ?, ?, ?) RETURNING id',
          [`Customer ${i}`, `+1 555 000 ${1000 + i}`, `c${i}@example.com`, t0 + i * day, t0 + i * day],
        );
        out.push(row!.id);
      }
      return out;
    });
    expect(typeof ids[0]).toBe('number');
    const statuses = ['quote', 'scheduled', 'in_progress', 'completed', 'invoiced', 'paid', 'cancelled'];
    const jobIds = await store.transaction(async (db) => {
      const out: number[] = [];
      for (let i = 0; i < 21; i++) {
        const status = statuses[i % 7]!;
        const row = await db.get<{ id: number }>(
          'INSERT INTO jobs (customer_id, title, status, price_cents, created_dt, modified_dt, paid_dt) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
          [ids[i % 6]!, `Job ${i}`, status, 1000 * (i + 1), t0, t0, status === 'paid' ? t0 + (i % 3) * day : null],
        );
        out.push(row!.id);
      }
      return out;
    });
    await store.transaction(counters);
    await store.transaction(async (db) => {
      await db.run("UPDATE jobs SET status = 'invoiced' WHERE id = ?", [jobIds[0]!]);
      await db.run("UPDATE jobs SET status = 'paid', paid_dt = ? WHERE id = ?", [t0 + 5 * day, jobIds[4]!]);
      await db.run('UPDATE jobs SET price_cents = price_cents + 7 WHERE id IN (?, ?, ?)', [jobIds[11]!, jobIds[5]!, jobIds[12]!]);
      await db.run('UPDATE jobs SET customer_id = ? WHERE id = ?', [ids[5]!, jobIds[11]!]);
      await db.run('UPDATE jobs SET archived_dt = ? WHERE id IN (?, ?)', [t0, jobIds[18]!, jobIds[6]!]);
      await db.run("UPDATE jobs SET archived_dt = ?, status = 'paid', paid_dt = ? WHERE id = ?", [t0, t0, jobIds[7]!]);
      await db.run('UPDATE customers SET archived_dt = ? WHERE id = ?', [t0, ids[2]!]);
      await db.run('UPDATE customers SET created_dt = created_dt + ? WHERE id = ?', [3 * day, ids[3]!]);
    });
    await store.transaction(counters);
    await store.transaction(async (db) => {
      await db.run("UPDATE jobs SET archived_dt = NULL, status = 'invoiced' WHERE id = ?", [jobIds[18]!]);
      await db.run('UPDATE customers SET archived_dt = NULL WHERE id = ?', [ids[2]!]);
      await db.run('DELETE FROM jobs WHERE id IN (?, ?, ?)', [jobIds[5]!, jobIds[6]!, jobIds[13]!]);
      const unused = await db.get<{ id: number }>(
        "INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES ('Gone', '', '', ?, ?) RETURNING id", [t0, t0],
      );
      await db.run('DELETE FROM customers WHERE id = ?', [unused!.id]);
    });
    const final = await store.transaction(counters);
    expect(final.customers).toBe(6);
    // A unit of work that fails changes no counter.
    await expect(store.transaction(async (db) => {
      await db.run('DELETE FROM jobs');
      await db.run('SELECT * FROM no_such_table');
    })).rejects.toMatchObject({ code: 'QUERY_FAILED', message: expect.stringContaining('no_such_table') });
    await expect(store.transaction(async (db) => {
      await db.run('DELETE FROM jobs');
      await db.run("INSERT INTO jobs (customer_id, title, status, created_dt, modified_dt) VALUES (1, 't', 'bogus', 0, 0)");
    })).rejects.toMatchObject({ code: 'CONSTRAINT' });
    expect(await store.transaction(counters)).toEqual(final);
  }, 60_000);

  it('retries a unit of work that lost a deadlock, and both writes land', async () => {
    await store.transaction(async (db) => {
      await db.run('CREATE TABLE IF NOT EXISTS deadlock_probe (k int PRIMARY KEY, v int NOT NULL)');
      await db.run('INSERT INTO deadlock_probe VALUES (1, 0), (2, 0) ON CONFLICT (k) DO UPDATE SET v = 0');
    });
    let tries = 0;
    const both = (first: number, second: number) =>
      store.transaction(async (db) => {
        tries++;
        await db.run('UPDATE deadlock_probe SET v = v + 1 WHERE k = ?', [first]);
        await new Promise((r) => setTimeout(r, 100));
        await db.run('UPDATE deadlock_probe SET v = v + 1 WHERE k = ?', [second]);
      });
    await Promise.all([both(1, 2), both(2, 1)]);
    expect(tries).toBeGreaterThan(2);
    const rows = await store.transaction((db) => db.all('SELECT k, v FROM deadlock_probe ORDER BY k'));
    expect(rows).toEqual([{ k: 1, v: 2 }, { k: 2, v: 2 }]);
  }, 30_000);

  describe('search', () => {
    let zoe: number;
    const findCustomers = (text: string) =>
      store.transaction((db) => {
        const q = toPostgresCustomerTsQuery(text);
        if (q === null) return Promise.resolve([] as number[]);
        return db.all<{ id: number }>('SELECT id FROM customers WHERE archived_dt IS NULL AND search_vector @@ ?::tsquery ORDER BY id', [q])
          .then((rows) => rows.map((r) => r.id));
      }, { readOnly: true });
    const findJobs = (text: string) =>
      store.transaction((db) => {
        const q = toPostgresTsQuery(text);
        if (q === null) return Promise.resolve([] as number[]);
        return db.all<{ id: number }>('SELECT id FROM jobs WHERE archived_dt IS NULL AND search_vector @@ ?::tsquery ORDER BY id', [q])
          .then((rows) => rows.map((r) => r.id));
      }, { readOnly: true });

    beforeAll(async () => {
      zoe = await store.transaction(async (db) => {
        const row = await db.get<{ id: number }>(
          'INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES (?, ?, ?, 1, 1) RETURNING id',
          ["Zoë Smith-O'Brien", '+1 555 987 6543', 'zoe.smith@acme-corp.example'],
        );
        await db.run(
          "INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES ('Søren Łódź ΟΔΟΣ', '+44 20 7946 0958', 'soren@example.dk', 1, 1)",
        );
        await db.run(
          "INSERT INTO jobs (customer_id, title, description, service_address, status, created_dt, modified_dt) VALUES (?, 'Fix the café boiler', 'Nguyễn''s flat', '12 Rue Émile', 'quote', 1, 1)",
          [row!.id],
        );
        return row!.id;
      });
    });

    it('the database tokenizes exactly as searchTokens', async () => {
      const samples = ["Zoë Smith-O'Brien zoe.smith@acme-corp.example +1 555 987 6543", 'Søren Straße Łódź ΟΔΟΣ οδός', 'İstanbul 中文 😀a a\u200db',
        'x\u0301y e\u0308 ǅemal ﬁne Ｆｕｌｌ ١٢٣ Ǎǎǲ', 'ÀÉÎÕÜ àéîõü Ħ ŀ ǆ Ǳ ẞ', `${'Ä'.repeat(300)} tail`, ...hostile.filter((h) => !h.includes('\u0000'))];
      const rows = await store.transaction((db) =>
        db.all<{ t: string }>(`SELECT otto_search_text(s) AS t FROM unnest(?::text[]) WITH ORDINALITY AS u(s, n) ORDER BY n`, [
          `{${samples.map((s) => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`,
        ]),
      );
      expect(rows.map((r) => r.t)).toEqual(samples.map((s) => searchTokens(s).join(' ')));
    });

    it('finds customers as the SQLite search does', async () => {
      for (const text of ['zoe', 'ZOË', 'Zoë', 'smi', "O'Brien", "smith-o'b", 'acme-corp', 'zoe.smith@acme-corp.example', 'acme', '6543', '987 6543',
        '+1 555 987 6543', '(555) 987-65', '15559876543', 'zoe 6543']) {
        expect(await findCustomers(text), text).toEqual([zoe]);
      }
      for (const text of ['zoey', 'brien-o', '5559876544', 'smith zoe.x', 'corp-acme']) {
        expect(await findCustomers(text), text).toEqual([]);
      }
      // SQLite keeps ł (no decomposition): lodz does not find Łódź.
      expect(await findCustomers('lodz')).toEqual([]);
      expect((await findCustomers('SØREN łódź οδος 0958')).length).toBe(1);
    });

    it('finds jobs by their text and their customer, renamed or not', async () => {
      expect((await findJobs('cafe boil')).length).toBe(1);
      expect((await findJobs('nguyen emile zoe')).length).toBe(1);
      await store.transaction((db) => db.run("UPDATE customers SET full_name = 'Zoé Renamed' WHERE id = ?", [zoe]));
      expect((await findJobs('renamed cafe')).length).toBe(1);
      expect((await findJobs('smith cafe')).length).toBe(0);
      expect(await findCustomers("O'Brien")).toEqual([]);
    });

    it('runs every hostile text without error', async () => {
      for (const text of hostile) {
        await expect(findCustomers(text), JSON.stringify(text)).resolves.toBeInstanceOf(Array);
        await expect(findJobs(text), JSON.stringify(text)).resolves.toBeInstanceOf(Array);
      }
      for (const text of ['"', '*', '😀', '()']) expect(await findCustomers(text)).toEqual([]);
    });
  });

  it('notifies listeners, also after the server restarts, and says when it is back (notices meanwhile were missed)', async () => {
    const got: string[] = [];
    let resumed = 0;
    const stop = await store.listen('otto_changes', (p) => got.push(p), () => resumed++);
    await store.notify('otto_changes', 'one');
    await store.transaction((db) => db.run('SELECT pg_notify(?, ?)', ['otto_changes', 'two']));
    await expect.poll(() => got, { timeout: 5000 }).toEqual(['one', 'two']);
    expect(resumed).toBe(0);
    await server.restart();
    await expect
      .poll(async () => {
        await store.notify('otto_changes', 'three').catch(() => {});
        return got.includes('three');
      }, { timeout: 15_000, interval: 200 })
      .toBe(true);
    expect(resumed).toBe(1);
    await stop();
  }, 60_000);

  it('says BUSY in words while PostgreSQL is down, and recovers when it is back', async () => {
    await server.halt();
    try {
      const error = await store.transaction((db) => db.get('SELECT 1')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ code: 'BUSY' });
      expect((error as Error).message).toMatch(new RegExp(`PostgreSQL is not reachable at 127\\.0\\.0\\.1:${server.port} \\(`));
      const again = await store.transaction((db) => db.get('SELECT 1')).catch((e: unknown) => e);
      expect(again).toMatchObject({ code: 'BUSY', message: expect.stringContaining('connection refused') });
    } finally {
      await server.start();
    }
    await expect(store.transaction((db) => db.get<{ one: number }>('SELECT 1 AS one'))).resolves.toEqual({ one: 1 });
    const n = await store.transaction((db) => db.get<{ n: number }>('SELECT sum(n) AS n FROM customer_count'));
    expect(n!.n).toBeGreaterThan(0);
  }, 60_000);
});
