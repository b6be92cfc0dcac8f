import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore, openSqliteStore } from './sqlite-store';
import { StoreError } from './store-error';
import type { SqliteStore } from './types';

let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('createSqliteStore', () => {
  it('throws Driver not initialized when used before open', () => {
    store = createSqliteStore({ storage: 'memory' });
    expect(() => store!.all('SELECT 1')).toThrow(/Driver not initialized/);
    expect(() => store!.get('SELECT 1')).toThrow(expect.objectContaining({ name: StoreError.name, code: 'NOT_INITIALIZED' }));
    expect(() => store!.get('SELECT 1')).toThrow(StoreError);
  });

  it('opens in memory in Node and reports the mode and SQLite version', async () => {
    store = createSqliteStore();
    const info = await store.open();
    expect(info.mode).toBe('memory');
    expect(info.journalMode).toBe('memory');
    // The SQLite of the pinned @sqlite.org/sqlite-wasm build (3.50.4-build1 is SQLite 3.50.4).
    const pinned = (createRequire(import.meta.url)('@sqlite.org/sqlite-wasm/package.json') as { version: string }).version;
    expect(info.sqliteVersion).toBe(pinned.split('-')[0]);
    expect(store.isOpen).toBe(true);
  });

  it('runs statements with positional and named parameters', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    store.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    const first = store.run('INSERT INTO t (name) VALUES (?)', ['Ada']);
    expect(first).toEqual({ changes: 1, lastInsertRowid: 1 });
    store.run('INSERT INTO t (name) VALUES (:name)', { ':name': 'Grace' });
    expect(store.all('SELECT id, name FROM t ORDER BY id')).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
    ]);
    expect(store.get('SELECT name FROM t WHERE id = ?', [2])).toEqual({ name: 'Grace' });
    expect(store.get('SELECT name FROM t WHERE id = ?', [99])).toBeUndefined();
  });

  it('reads every kind of value as SQLite WASM does: numbers, integers past 2^53 as bigint, text, blobs, null', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    const row = store.get(
      `SELECT 42 AS small, -9007199254740991 AS lowest_safe, 9007199254740991 AS highest_safe, 9007199254740992 AS past_safe,
         -9223372036854775808 AS lowest, 1.5 AS real, 1e300 AS huge, 'Zoë 😀' AS text, '' AS empty, x'00ff10' AS blob,
         NULL AS none, 1 AS twice, 2 AS twice`,
    );
    expect(row).toEqual({
      small: 42,
      lowest_safe: -9007199254740991,
      highest_safe: 9007199254740991,
      past_safe: 9007199254740992n,
      lowest: -9223372036854775808n,
      real: 1.5,
      huge: 1e300,
      text: 'Zoë 😀',
      empty: '',
      blob: new Uint8Array([0, 255, 16]),
      none: null,
      twice: 2,
    });
    expect(store.all('SELECT value AS v FROM json_each(?) ORDER BY key', ['[1, 2.5, "x", null]'])).toEqual([{ v: 1 }, { v: 2.5 }, { v: 'x' }, { v: null }]);
  });

  it('clears bindings between uses of a cached statement', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    expect(store.get('SELECT ? AS v', [1])).toEqual({ v: 1 });
    expect(store.get('SELECT ? AS v')).toEqual({ v: null });
  });

  it('commits a transaction and rolls one back when it throws', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    store.exec('CREATE TABLE t (v INTEGER)');
    store.transaction(() => store!.run('INSERT INTO t VALUES (1)'));
    expect(() =>
      store!.transaction(() => {
        store!.run('INSERT INTO t VALUES (2)');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.all('SELECT v FROM t')).toEqual([{ v: 1 }]);
  });

  it('rolls back only the inner savepoint of a nested transaction', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    store.exec('CREATE TABLE t (v INTEGER)');
    store.transaction(() => {
      store!.run('INSERT INTO t VALUES (1)');
      expect(() =>
        store!.transaction(() => {
          store!.run('INSERT INTO t VALUES (2)');
          throw new Error('inner');
        }),
      ).toThrow('inner');
      store!.run('INSERT INTO t VALUES (3)');
    });
    expect(store.all('SELECT v FROM t ORDER BY v')).toEqual([{ v: 1 }, { v: 3 }]);
  });

  it('reports SQL errors as StoreError with a code', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    store.exec('CREATE TABLE t (v INTEGER NOT NULL)');
    expect(() => store!.run('INSERT INTO t VALUES (NULL)')).toThrow(
      expect.objectContaining({ name: 'StoreError', code: 'CONSTRAINT' }),
    );
    expect(() => store!.all('SELECT * FROM missing')).toThrow(expect.objectContaining({ code: 'QUERY_FAILED' }));
  });

  it('exports the database as the bytes of a SQLite file', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    store.exec('CREATE TABLE t (v TEXT); INSERT INTO t VALUES (\'kept\')');
    const bytes = store.exportDatabase();
    expect(new TextDecoder().decode(bytes.slice(0, 15))).toBe('SQLite format 3');
  });

  it('starts a new database as the bytes it is given (newDatabase), a Node Buffer included', async () => {
    const source = await openSqliteStore({ storage: 'memory' });
    source.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('from the file')");
    const bytes = Buffer.from(source.exportDatabase());
    await source.close();
    let asked = 0;
    store = await openSqliteStore({ storage: 'memory', newDatabase: async () => (asked++, bytes) });
    expect(store.all('SELECT v FROM t')).toEqual([{ v: 'from the file' }]);
    expect(asked).toBe(1);
  });

  it('is unusable after close and can be closed twice', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    await store.close();
    await store.close();
    expect(() => store!.exec('SELECT 1')).toThrow(/Driver not initialized/);
  });
});
