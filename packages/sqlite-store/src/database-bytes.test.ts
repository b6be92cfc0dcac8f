import { describe, expect, it } from 'vitest';
import { assertSqliteFile, inspectDatabase, inspectDatabaseBytes } from './inspect-database-bytes';
import { createSqliteStore, openSqliteStore } from './sqlite-store';

async function sampleBytes() {
  const store = await openSqliteStore({ storage: 'memory' });
  store.exec("CREATE TABLE notes (text TEXT); PRAGMA user_version = 3");
  for (let i = 0; i < 300; i++) store.run('INSERT INTO notes VALUES (?)', [`note ${i} ${'x'.repeat(200)}`]);
  const bytes = store.exportDatabase();
  await store.close();
  return bytes as Uint8Array<ArrayBuffer>;
}

describe('database bytes', () => {
  it('opens a memory store holding a copy of exported bytes', async () => {
    const bytes = await sampleBytes();
    const copy = await openSqliteStore({ storage: 'memory', initialData: bytes });
    expect(copy.get('SELECT count(*) AS n FROM notes')).toEqual({ n: 300 });
    expect(copy.userVersion()).toBe(3);
    copy.run("INSERT INTO notes VALUES ('grows')");
    expect(copy.get('SELECT count(*) AS n FROM notes')).toEqual({ n: 301 });
    await copy.close();
  });

  it('replaces the whole database of an open store', async () => {
    const bytes = await sampleBytes();
    const store = await openSqliteStore({ storage: 'memory' });
    store.exec('CREATE TABLE other (v INTEGER)');
    await store.replaceDatabase!(bytes);
    expect(store.get('SELECT count(*) AS n FROM notes')).toEqual({ n: 300 });
    expect(store.get("SELECT name FROM sqlite_master WHERE name = 'other'")).toBeUndefined();
    await store.close();
  });

  it('opens a file given as a Blob (replaceWith) and replaces a database with one', async () => {
    const file = new Blob([await sampleBytes()]);
    const opened = await openSqliteStore({ storage: 'memory', replaceWith: file });
    expect(opened.get('SELECT count(*) AS n FROM notes')).toEqual({ n: 300 });
    opened.exec('DELETE FROM notes');
    await opened.replaceDatabase!(file);
    expect(opened.get('SELECT count(*) AS n FROM notes')).toEqual({ n: 300 });
    await opened.close();
  });

  it('checks a store not opened yet as inspectDatabaseBytes checks bytes, and refuses what is not a SQLite file before reading it whole', async () => {
    const bytes = await sampleBytes();
    const store = createSqliteStore({ storage: 'memory', replaceWith: new Blob([bytes]), untrusted: { deadline: Date.now() + 10_000 } });
    expect(await inspectDatabase(store)).toEqual(await inspectDatabaseBytes(bytes));
    await store.close();
    await expect(assertSqliteFile(new Blob(['not a database'.repeat(100)]))).rejects.toMatchObject({ code: 'INVALID_DATABASE', message: expect.stringContaining('not a SQLite database') });
    await expect(assertSqliteFile(new Blob([bytes]), { maxBytes: 1024 })).rejects.toMatchObject({ message: expect.stringMatching(/^This file is 0\.\d MB, more than the 0 MB a backup may be/) });
    await expect(assertSqliteFile(new Blob([bytes]))).resolves.toBeUndefined();
  });

  it('inspects a healthy database', async () => {
    expect(await inspectDatabaseBytes(await sampleBytes())).toEqual({
      userVersion: 3,
      objects: ['notes'],
      schema: [{ type: 'table', name: 'notes', tableName: 'notes', sql: 'CREATE TABLE notes (text TEXT)' }],
    });
  });

  it('refuses a file that is not a SQLite database', async () => {
    const text = new TextEncoder().encode('name,email\nAda,ada@example.com\n'.repeat(40));
    await expect(inspectDatabaseBytes(text)).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringContaining('not a SQLite database'),
    });
    await expect(inspectDatabaseBytes(new Uint8Array(0))).rejects.toMatchObject({ code: 'INVALID_DATABASE' });
  });

  it('refuses a damaged database', async () => {
    const bytes = await sampleBytes();
    const damaged = bytes.slice();
    for (let i = 4096 + 100; i < damaged.byteLength; i += 7) damaged[i] = 0xff;
    await expect(inspectDatabaseBytes(damaged)).rejects.toMatchObject({ code: 'INVALID_DATABASE' });
  });

  it('names a database whose schema itself is damaged as damaged (opening it reads no schema)', async () => {
    const store = await openSqliteStore({ storage: 'memory' });
    // A schema of several pages, as Otto's is.
    for (let i = 0; i < 60; i++) store.exec(`CREATE TABLE t${i} (a TEXT, b TEXT, c TEXT); CREATE INDEX t${i}_abc ON t${i} (a, b, c)`);
    const bytes = store.exportDatabase().slice();
    await store.close();
    for (let i = 4096 + 100; i < bytes.byteLength; i += 3) bytes[i] = 0x42;
    await expect(inspectDatabaseBytes(bytes)).rejects.toMatchObject({
      code: 'INVALID_DATABASE',
      message: expect.stringMatching(/^This database is damaged, so it cannot be used .*Nothing was changed\.$/),
    });
  });
});

describe('WAL files', () => {
  it('opens the bytes of a database in WAL mode', async () => {
    const bytes = (await (async () => {
      const store = await openSqliteStore({ storage: 'memory' });
      store.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('wal')");
      const b = store.exportDatabase();
      await store.close();
      return b;
    })()).slice();
    bytes[18] = bytes[19] = 2; // what a WAL-mode file's header says
    expect(await inspectDatabaseBytes(bytes)).toMatchObject({ userVersion: 0, objects: ['t'] });
  });
});
