import { readFileSync } from 'node:fs';
import { customerSchema, jobSchema } from '@otto/api-contract';
import { openSqliteStore } from '@otto/sqlite-store';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMockApi } from '../src/create-mock-api';
import { checkBackup } from '../src/database/check-backup';
import { latestSchemaVersion } from '../src/database/migrations';

const fixture = (version: number) => new Uint8Array(readFileSync(new URL(`./fixtures/otto-v${version}.sqlite3`, import.meta.url)));
const get = (api: Awaited<ReturnType<typeof createMockApi>>, path: string) =>
  api.fetch(new Request(`http://localhost${path}`)).then((r) => r.json());

describe('upgrades', () => {
  for (const version of [1, 2, 3]) {
    it(`opens a database made by schema ${version} under the newest code with its data intact`, async () => {
      const store = await openSqliteStore({ storage: 'memory', initialData: fixture(version) });
      expect(store.userVersion()).toBe(version);
      const api = await createMockApi({ store });
      expect(api.info.schemaVersion).toBe(latestSchemaVersion);
      expect(api.info.seeded).toEqual({ customers: 0, jobs: 0 });
      const customers = z.array(customerSchema).parse(await get(api, '/api/customers'));
      expect(customers.map((c) => c.full_name).sort()).toEqual(["<script>alert(1)</script>", "Seán O'Fixture", 'Zoë Fixture']);
      expect(await get(api, `/api/customers?filterJson=${encodeURIComponent('{"queryText":"zoe"}')}`)).toHaveLength(1);
      const jobs = z.array(jobSchema).parse(await get(api, '/api/jobs'));
      expect(jobs.map((j) => j.title).sort()).toEqual(version >= 3 ? ['Boiler service', 'Gutter cleaning'] : version === 2 ? ['Boiler service'] : []);
      store.run("INSERT INTO customers_fts (customers_fts) VALUES ('integrity-check')");
      store.run("INSERT INTO jobs_fts (jobs_fts) VALUES ('integrity-check')");
      await api.close();
      await store.close();
    });
  }
});

describe('checkBackup', () => {
  it('accepts an Otto backup of this or an older schema and says what it holds', async () => {
    expect(await checkBackup(fixture(1))).toEqual({ schemaVersion: 1, customers: 3, jobs: 0 });
    expect(await checkBackup(fixture(2))).toEqual({ schemaVersion: 2, customers: 3, jobs: 1 });
    expect(await checkBackup(fixture(3))).toEqual({ schemaVersion: 3, customers: 3, jobs: 2 });
  });

  it('refuses a backup from a newer Otto', async () => {
    const store = await openSqliteStore({ storage: 'memory', initialData: fixture(2) });
    store.exec(`PRAGMA user_version = ${latestSchemaVersion + 1}`);
    const newer = store.exportDatabase();
    await store.close();
    await expect(checkBackup(newer)).rejects.toMatchObject({ code: 'SCHEMA_TOO_NEW', message: expect.stringContaining('newer version of Otto') });
  });

  it('refuses a SQLite database that Otto did not make', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    store.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY); PRAGMA user_version = 1');
    const foreign = store.exportDatabase();
    await store.close();
    await expect(checkBackup(foreign)).rejects.toMatchObject({ code: 'INVALID_DATABASE', message: expect.stringContaining('not made by Otto') });
  });

  it("refuses a database with Otto's table names but not Otto's columns", async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    store.exec(
      "CREATE TABLE customers (id INTEGER PRIMARY KEY, full_name TEXT); CREATE VIRTUAL TABLE customers_fts USING fts5(customer_text); PRAGMA user_version = 2",
    );
    const lookalike = store.exportDatabase();
    await store.close();
    await expect(checkBackup(lookalike)).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringContaining("This file's schema is not Otto's (schema 2), so Otto will not restore it: The file's table `customers` is defined differently from Otto's."),
    });
  });

  it('refuses a damaged backup and a file that is not a database', async () => {
    const damaged = fixture(2).slice();
    for (let i = 8192; i < damaged.byteLength; i += 5) damaged[i] = 0x5a;
    await expect(checkBackup(damaged)).rejects.toMatchObject({ code: 'INVALID_DATABASE', message: expect.stringMatching(/^This database is damaged/) });
    for (const notADatabase of [new TextEncoder().encode('id,name\n1,Ada\n'), new Uint8Array(0)]) {
      await expect(checkBackup(notADatabase)).rejects.toMatchObject({
        code: 'INVALID_DATABASE',
        message: 'This file is not a SQLite database. Choose a backup that Otto saved.',
      });
    }
  });
});

describe('storage pressure', () => {
  it('answers 507 in words when the database cannot grow, and keeps what was there', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    const api = await createMockApi({ store, seed: { count: 20, fakerSeed: 3 } });
    const before = await get(api, '/api/customers?filterJson=%7B%22limit%22%3A1000%7D');
    // Cap the file at its current size: the next page SQLite needs is refused, as a full disk would.
    const pages = store.get<{ page_count: number }>('PRAGMA page_count')!.page_count;
    store.exec(`PRAGMA max_page_count = ${pages}`);
    let last: Response | undefined;
    for (let i = 0; i < 200 && (last === undefined || last.status === 200); i++) {
      last = await api.fetch(
        new Request('http://localhost/api/customers', {
          method: 'POST',
          body: JSON.stringify({ full_name: `Person ${i} ${'x'.repeat(150)}`, email: `p${i}@example.com`, phone: '555' }),
        }),
      );
    }
    expect(last!.status).toBe(507);
    expect(await last!.json()).toMatchObject({ code: 'STORAGE_FULL', message: expect.stringContaining('refused to store more data') });
    const after = (await get(api, '/api/customers?filterJson=%7B%22limit%22%3A1000%7D')) as unknown[];
    expect(after.slice(after.length - (before as unknown[]).length)).toEqual(before);
    expect(store.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    await api.close();
    await store.close();
  });
});
