import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeModuleReady, nativeModuleWaitMs } from '@otto/vitest-config';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../sqlite-store';
import type { Migration, SqliteStore } from '../types';
import { createNodeSqliteStore, openNodeSqliteStore } from './node-sqlite-store';

// On a new machine `npm test` builds better-sqlite3 beside the first tests: this file waits for it.
beforeAll(nativeModuleReady, nativeModuleWaitMs);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'otto-node-store-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

// The same behaviour from both drivers: the backend must not be able to tell them apart.
const drivers: [string, () => SqliteStore][] = [
  ['the WASM store', () => createSqliteStore({ storage: 'memory' })],
  ['the native store', () => createNodeSqliteStore({ filename: ':memory:' })],
];

describe.each(drivers)('%s', (_name, create) => {
  async function open(): Promise<SqliteStore> {
    store = create();
    await store.open();
    return store;
  }

  it('throws Driver not initialized before open', () => {
    store = create();
    expect(() => store!.all('SELECT 1')).toThrow(expect.objectContaining({ name: 'StoreError', code: 'NOT_INITIALIZED' }));
  });

  it('binds positional and prefixed named parameters, and returns rows as objects', async () => {
    const s = await open();
    s.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data BLOB)');
    expect(s.run('INSERT INTO t (name) VALUES (?)', ['Ada'])).toEqual({ changes: 1, lastInsertRowid: 1 });
    s.run('INSERT INTO t (name, data) VALUES (:name, :data)', { ':name': 'Grace', ':data': new Uint8Array([1, 2]) });
    s.run('INSERT INTO t (name) VALUES ($name)', { $name: 'Edsger' });
    expect(s.all('SELECT id, name FROM t ORDER BY id')).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
      { id: 3, name: 'Edsger' },
    ]);
    expect([...(s.get<{ data: Uint8Array }>('SELECT data FROM t WHERE id = 2')?.data ?? [])]).toEqual([1, 2]);
    expect(s.get('SELECT name FROM t WHERE id = ?', [99])).toBeUndefined();
    expect(s.get('SELECT ? AS v', [1])).toEqual({ v: 1 });
  });

  it('rolls back a failed transaction and only the inner savepoint of a nested one', async () => {
    const s = await open();
    s.exec('CREATE TABLE t (v INTEGER)');
    expect(() =>
      s.transaction(() => {
        s.run('INSERT INTO t VALUES (1)');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    s.transaction(() => {
      s.run('INSERT INTO t VALUES (2)');
      expect(() =>
        s.transaction(() => {
          s.run('INSERT INTO t VALUES (3)');
          throw new Error('inner');
        }),
      ).toThrow('inner');
    });
    expect(s.all('SELECT v FROM t')).toEqual([{ v: 2 }]);
    expect(() => s.transaction(() => Promise.resolve(1))).toThrow(/synchronous/);
  });

  it('reports SQL errors as StoreError with a code', async () => {
    const s = await open();
    s.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    expect(() => s.run('INSERT INTO t VALUES (NULL)')).toThrow(expect.objectContaining({ name: 'StoreError', code: 'CONSTRAINT' }));
    expect(() => s.all('SELECT * FROM missing')).toThrow(expect.objectContaining({ code: 'QUERY_FAILED' }));
  });

  it('migrates in order, and rolls a failing migration back with DB migration failed', async () => {
    const s = await open();
    const migrations: Migration[] = [
      { version: 1, name: 'one', up: 'CREATE TABLE a (v INTEGER)' },
      { version: 2, name: 'two', up: 'CREATE TABLE b (v INTEGER); CREATE TABLE a (v INTEGER)' },
    ];
    expect(() => s.migrate(migrations)).toThrow(/^DB migration failed: migration 2 \(two\) was rolled back/);
    expect(s.userVersion()).toBe(1);
    expect(s.get("SELECT name FROM sqlite_master WHERE name = 'b'")).toBeUndefined();
  });

  it('runs the FTS5 unicode tokenizer that folds diacritics', async () => {
    const s = await open();
    s.exec("CREATE VIRTUAL TABLE f USING fts5(t, tokenize = 'unicode61 remove_diacritics 2')");
    s.run('INSERT INTO f (t) VALUES (?)', ['Zoë Smith']);
    expect(s.all('SELECT t FROM f WHERE f MATCH ?', ['"zoe"*'])).toEqual([{ t: 'Zoë Smith' }]);
  });

  it('exports the database as the bytes of a SQLite file', async () => {
    const s = await open();
    s.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('kept')");
    expect(new TextDecoder().decode(s.exportDatabase().slice(0, 15))).toBe('SQLite format 3');
  });
});

describe('createNodeSqliteStore on a file', () => {
  it('keeps the data across close and reopen', async () => {
    const filename = join(dir, 'kept.sqlite');
    store = await openNodeSqliteStore({ filename });
    expect(store.info).toMatchObject({ mode: 'file', filename });
    expect(store.info.sqliteVersion).toMatch(/^3\./);
    store.migrate([{ version: 1, name: 'notes', up: 'CREATE TABLE notes (text TEXT)' }]);
    store.run('INSERT INTO notes VALUES (?)', ['survives']);
    await store.close();
    await store.close();

    store = await openNodeSqliteStore({ filename });
    expect(store.userVersion()).toBe(1);
    expect(store.all('SELECT text FROM notes')).toEqual([{ text: 'survives' }]);
  });

  it('deletes its file and the WAL files', async () => {
    const filename = join(dir, 'deleted.sqlite');
    store = await openNodeSqliteStore({ filename });
    store.exec('CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)');
    await store.deleteDatabase();
    expect(store.isOpen).toBe(false);
    for (const suffix of ['', '-wal', '-shm']) expect(existsSync(`${filename}${suffix}`)).toBe(false);
  });

  it('fails to open a file that is not a database with a StoreError', async () => {
    const filename = join(dir, 'garbage.sqlite');
    await writeFile(filename, 'this is not a database, just text that is long enough to fill a header page');
    store = createNodeSqliteStore({ filename });
    await expect(store.open()).rejects.toMatchObject({ name: 'StoreError', code: 'INVALID_DATABASE' });
    expect(store.isOpen).toBe(false);
  });

  it('fails to open a file in a folder that does not exist', async () => {
    store = createNodeSqliteStore({ filename: join(dir, 'missing', 'x.sqlite') });
    await expect(store.open()).rejects.toMatchObject({ code: 'OPEN_FAILED', message: expect.stringContaining('Failed to open') });
  });
});
