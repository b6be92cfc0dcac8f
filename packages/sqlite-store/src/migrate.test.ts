import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store';
import type { Migration, SqliteStore } from './types';

let store: SqliteStore;
afterEach(() => store?.close());

const one: Migration = { version: 1, name: 'notes', up: 'CREATE TABLE notes (text TEXT NOT NULL)' };
const two: Migration = {
  version: 2,
  name: 'notes.author',
  up: (db) => db.exec("ALTER TABLE notes ADD COLUMN author TEXT NOT NULL DEFAULT ''"),
};

describe('migrate', () => {
  it('applies pending migrations in order and records the version', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    expect(store.migrate([two, one])).toEqual({ from: 0, to: 2, applied: [1, 2] });
    expect(store.userVersion()).toBe(2);
    store.run("INSERT INTO notes (text, author) VALUES ('x', 'me')");
  });

  it('applies nothing when the database is current', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    store.migrate([one]);
    expect(store.migrate([one])).toEqual({ from: 1, to: 1, applied: [] });
    expect(store.migrate([one, two]).applied).toEqual([2]);
  });

  it('rolls a failing migration back and throws DB migration failed with the cause', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    store.migrate([one]);
    store.run("INSERT INTO notes (text) VALUES ('before')");
    const broken: Migration = {
      version: 2,
      name: 'broken',
      up: "CREATE TABLE extra (v INTEGER); INSERT INTO notes (text) VALUES ('half'); SELECT * FROM nope",
    };
    let caught: unknown;
    try {
      store.migrate([one, broken]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'MIGRATION_FAILED' });
    expect((caught as Error).message).toMatch(/^DB migration failed: migration 2 \(broken\)/);
    expect((caught as Error).cause).toBeInstanceOf(Error);
    expect(store.userVersion()).toBe(1);
    expect(store.all('SELECT text FROM notes')).toEqual([{ text: 'before' }]);
    expect(store.get("SELECT name FROM sqlite_master WHERE name = 'extra'")).toBeUndefined();
  });

  it('refuses a database newer than the code', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    store.migrate([one, two]);
    store.run("INSERT INTO notes (text, author) VALUES ('kept', 'Ada')");
    expect(() => store.migrate([one])).toThrow(expect.objectContaining({ code: 'SCHEMA_TOO_NEW' }));
    // Left as it was: the newer version, its column and its rows.
    expect(store.userVersion()).toBe(2);
    expect(store.all('SELECT text, author FROM notes')).toEqual([{ text: 'kept', author: 'Ada' }]);
  });

  it('refuses migrations with gaps in their numbering', async () => {
    store = await openSqliteStore({ storage: 'memory' });
    expect(() => store.migrate([one, { ...two, version: 3 }])).toThrow(/numbered 1, 2, 3/);
    expect(store.userVersion()).toBe(0);
  });
});
