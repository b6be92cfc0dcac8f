import { readFileSync } from 'node:fs';
import { openSqliteStore, type SqliteStore } from '@otto/sqlite-store';
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../src/create-mock-api';
import { checkBackup, maxInMemoryBackupBytes } from '../src/database/check-backup';
import { latestSchemaVersion, migrations } from '../src/database/migrations';

const fixture = (version: number) => new Uint8Array(readFileSync(new URL(`./fixtures/otto-v${version}.sqlite3`, import.meta.url)));

/** Otto's latest backup (three customers, two jobs) with `edit` done to it outside Otto. */
async function editedBackup(edit: (store: SqliteStore) => void): Promise<Uint8Array> {
  const store = await openSqliteStore({ storage: 'memory', initialData: fixture(3) });
  store.migrate(migrations);
  store.exec('PRAGMA foreign_keys = OFF');
  edit(store);
  const bytes = store.exportDatabase();
  await store.close();
  return bytes;
}

describe('restore checks the whole schema', () => {
  it("accepts a backup Otto saved at every schema version it can restore from", async () => {
    for (let version = 1; version <= latestSchemaVersion; version++) {
      // A database that began at schema 1 and lived through every migration up to `version`.
      const store = await openSqliteStore({ storage: 'memory' });
      store.migrate(migrations.filter((m) => m.version === 1));
      store.run("INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES ('Ada Lovelace', '555 0100', 'ada@example.com', 1, 1)");
      store.migrate(migrations.filter((m) => m.version <= version));
      expect(store.userVersion()).toBe(version);
      const bytes = store.exportDatabase();
      await store.close();
      expect(await checkBackup(bytes)).toEqual({ schemaVersion: version, customers: 1, jobs: 0 });
    }
  });

  it('accepts the file a running Otto exports, seeded data and all', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    const api = await createMockApi({ store, seed: { count: 40 }, now: () => Date.UTC(2026, 10, 2) });
    const bytes = store.exportDatabase();
    await api.close();
    await store.close();
    expect(await checkBackup(bytes)).toMatchObject({ schemaVersion: latestSchemaVersion, customers: 40 });
  });

  it('refuses a backup with a trigger Otto does not have, naming it', async () => {
    const bytes = await editedBackup((s) =>
      s.exec("CREATE TRIGGER spy AFTER INSERT ON customers BEGIN UPDATE customers SET email = 'x@evil.example' WHERE id = new.id; END"),
    );
    await expect(checkBackup(bytes)).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringContaining("so Otto will not restore it: The file has a trigger `spy` that Otto's schema does not have."),
    });
  });

  it('refuses a backup whose search trigger was swapped for one that does nothing', async () => {
    const bytes = await editedBackup((s) =>
      s.exec('DROP TRIGGER customers_fts_after_insert; CREATE TRIGGER customers_fts_after_insert AFTER INSERT ON customers BEGIN SELECT 1; END'),
    );
    await expect(checkBackup(bytes)).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringContaining("The file's trigger `customers_fts_after_insert` is defined differently from Otto's."),
    });
  });

  it('refuses a backup missing an index, and one with an extra view', async () => {
    const missing = await editedBackup((s) => s.exec('DROP INDEX customers_email_idx'));
    await expect(checkBackup(missing)).rejects.toMatchObject({
      message: expect.stringContaining("The file has no index `customers_email_idx`, which Otto's schema has."),
    });
    const extra = await editedBackup((s) => s.exec('CREATE VIEW everyone AS SELECT * FROM customers'));
    await expect(checkBackup(extra)).rejects.toMatchObject({ message: expect.stringContaining("The file has a view `everyone` that Otto's schema does not have.") });
  });

  it('refuses, without hanging, a backup whose customers are an endless recursive view', async () => {
    const bytes = await editedBackup((s) =>
      s.exec(`
        DROP TABLE customers;
        CREATE VIEW customers AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
          SELECT x AS id, 'Loop' AS full_name, '' AS phone, '' AS email, 1 AS created_dt, 1 AS modified_dt, NULL AS archived_dt FROM n;
      `),
    );
    // With a budget: were anything to read the view, the check would be stopped there, not hang.
    await expect(checkBackup(bytes, { deadline: Date.now() + 10_000 })).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringContaining("The file has a view `customers` that Otto's schema does not have."),
    });
  });

  it('refuses a file over the size limit before opening it (in memory, where there is no OPFS)', async () => {
    const oversized = new Uint8Array(maxInMemoryBackupBytes + 1);
    oversized.set(fixture(3));
    await expect(checkBackup(oversized)).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: 'This file is 200 MB, more than the 200 MB a backup may be, so it was not opened. Nothing was changed.',
    });
  });

  it('refuses in words when the check runs out of time', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    const api = await createMockApi({ store, seed: { count: 200 }, now: () => Date.UTC(2026, 10, 2) });
    const bytes = store.exportDatabase();
    await api.close();
    await store.close();
    await expect(checkBackup(bytes, { deadline: Date.now() - 1 })).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringContaining('took longer than a check may take'),
    });
  });
});
