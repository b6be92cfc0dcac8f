import { createSqliteStore, type SqliteStore } from '@otto/sqlite-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteSqlStore } from './sqlite-sql-store';
import type { SqlClient } from './types';

describe('createSqliteSqlStore', () => {
  let store: SqliteStore;
  beforeEach(async () => {
    store = createSqliteStore({ storage: 'memory' });
    await store.open();
    store.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  });
  afterEach(() => store.close());

  it('runs units one at a time: a unit that awaits between statements lets no other unit in', async () => {
    const sql = createSqliteSqlStore(store);
    const seen: string[] = [];
    const slow = sql.transaction(async (db) => {
      await db.run("INSERT INTO notes (text) VALUES ('a')");
      seen.push('slow wrote');
      await new Promise((resolve) => setTimeout(resolve, 20));
      await db.run("INSERT INTO notes (text) VALUES ('b')");
      seen.push('slow done');
    });
    const reader = sql.transaction(async (db) => {
      const n = (await db.get<{ n: number }>('SELECT count(*) AS n FROM notes'))?.n;
      seen.push(`read ${n}`);
    }, { readOnly: true });
    await Promise.all([slow, reader]);
    expect(seen).toEqual(['slow wrote', 'slow done', 'read 2']);
  });

  it('rolls a unit back when it rejects, and the next unit still runs', async () => {
    const sql = createSqliteSqlStore(store);
    const failed = sql.transaction(async (db) => {
      await db.run("INSERT INTO notes (text) VALUES ('lost')");
      throw new Error('nope');
    });
    await expect(failed).rejects.toThrow('nope');
    const id = await sql.transaction(async (db) => (await db.get<{ id: number }>("INSERT INTO notes (text) VALUES ('kept') RETURNING id"))?.id);
    expect(typeof id).toBe('number');
    expect(store.all('SELECT text FROM notes')).toEqual([{ text: 'kept' }]);
  });

  it('refuses a statement on a unit that has ended', async () => {
    const sql = createSqliteSqlStore(store);
    let kept: SqlClient | undefined;
    await sql.transaction(async (db) => {
      kept = db;
    });
    await expect((kept as SqlClient).all('SELECT 1')).rejects.toThrow(/has ended/);
  });
});
