import { describe, expect, it } from 'vitest';
import { wasInterrupted } from './guard-connection';
import { inspectDatabaseBytes } from './inspect-database-bytes';
import { openSqliteStore } from './sqlite-store';

const endless = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x AS id FROM r';

async function hostileBytes(rows = 0): Promise<Uint8Array> {
  const store = await openSqliteStore({ storage: 'memory' });
  store.exec('CREATE TABLE filler (v TEXT)');
  for (let i = 0; i < rows; i++) store.run('INSERT INTO filler VALUES (?)', [`row ${i}`]);
  store.exec(`
    CREATE TABLE notes (text TEXT);
    CREATE TABLE seen (text TEXT);
    CREATE TRIGGER notes_spy AFTER INSERT ON notes BEGIN INSERT INTO seen VALUES (new.text); END;
    CREATE VIEW forever AS ${endless};
  `);
  const bytes = store.exportDatabase();
  await store.close();
  return bytes;
}

describe('untrusted stores', () => {
  it("run none of the file's triggers and views", async () => {
    const store = await openSqliteStore({ storage: 'memory', initialData: await hostileBytes(), untrusted: { deadline: Date.now() + 60_000 } });
    store.run("INSERT INTO notes VALUES ('hello')");
    expect(store.get('SELECT count(*) AS n FROM seen')).toEqual({ n: 0 });
    // With views off SQLite cannot expand the view's body: reading it fails at once.
    expect(() => store.all('SELECT id FROM forever LIMIT 1')).toThrow(/no such table/);
    await store.close();
  });

  it('refuse writes to the schema through SQL (defensive)', async () => {
    const store = await openSqliteStore({ storage: 'memory', initialData: await hostileBytes(), untrusted: { deadline: Date.now() + 60_000 } });
    expect(() => store.exec('PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = NULL')).toThrow();
    await store.close();
  });

  it('interrupt a statement that runs past the deadline instead of hanging', async () => {
    // The deadline has passed already: the first look at the clock (after 1000 steps) stops it.
    const store = await openSqliteStore({ storage: 'memory', initialData: await hostileBytes(), untrusted: { deadline: Date.now() - 1, runSchemaCode: true } });
    let caught: unknown;
    try {
      store.all('SELECT count(*) AS n FROM forever');
    } catch (error) {
      caught = error;
    }
    expect(wasInterrupted(caught)).toBe(true);
    await store.close();
  });
});

describe('inspectDatabaseBytes on a hostile file', () => {
  it('reads the schema of a file with an endless view without running it', async () => {
    const info = await inspectDatabaseBytes(await hostileBytes());
    expect(info.schema.map((o) => `${o.type} ${o.name}`)).toEqual(['table filler', 'table notes', 'table seen', 'trigger notes_spy', 'view forever']);
  });

  it('refuses a file over maxBytes before opening it', async () => {
    const bytes = await hostileBytes();
    await expect(inspectDatabaseBytes(bytes, { maxBytes: bytes.byteLength - 1 })).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringMatching(/^This file is .* MB, more than the .* MB a backup may be, so it was not opened\. Nothing was changed\.$/),
    });
  });

  it('stops and refuses in words once its deadline has passed', async () => {
    // Enough rows that the integrity check takes more than one look at the clock.
    await expect(inspectDatabaseBytes(await hostileBytes(2000), { deadline: Date.now() - 1 })).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringContaining('took longer than a check may take'),
    });
  });
});
