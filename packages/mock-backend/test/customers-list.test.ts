import { customerSchema, totalCountHeader } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { maxRankedMatches } from '../src/customers/customer-repository';
import { startApi, type TestApi } from './helpers';

const customers = z.array(customerSchema);
let t: TestApi;
afterEach(() => t.api.close());

describe('GET /api/customers', () => {
  it('returns the 10 most recently modified customers and the total by default', async () => {
    t = await startApi({ seed: { count: 40, fakerSeed: 7 } });
    const res = await t.list();
    expect(res.status).toBe(200);
    expect(res.headers.get(totalCountHeader)).toBe('40');
    const page = customers.parse(res.json);
    expect(page).toHaveLength(10);
    const all = t.api.store.all<{ modified_dt: number }>('SELECT modified_dt FROM customers ORDER BY modified_dt DESC');
    expect(page.map((c) => c.modified_dt)).toEqual(all.slice(0, 10).map((r) => r.modified_dt));
  });

  it('pages with offset and limit without overlap', async () => {
    t = await startApi({ seed: { count: 25, fakerSeed: 3 } });
    const everyone = customers.parse((await t.list({ limit: 25 })).json);
    const first = customers.parse((await t.list({ limit: 10, offset: 0 })).json);
    const second = customers.parse((await t.list({ limit: 10, offset: 10 })).json);
    const last = customers.parse((await t.list({ limit: 10, offset: 20 })).json);
    expect([...first, ...second, ...last].map((c) => c.id)).toEqual(everyone.map((c) => c.id));
    expect(last).toHaveLength(5);
    expect((await t.list({ offset: 100 })).json).toEqual([]);
  });

  it('ignores and logs a filterJson that is not JSON or fails the shape check', async () => {
    t = await startApi({ seed: { count: 15, fakerSeed: 1 } });
    const expected = (await t.list()).json;
    const bad = ['{not json', '[]', 'null', '"text"', '{"limit":"5"}', '{"queryText":5}', '{"offset":true}'];
    for (const raw of bad) {
      const res = await t.call('GET', `/api/customers?filterJson=${encodeURIComponent(raw)}`);
      expect(res.status, raw).toBe(200);
      expect(res.json, raw).toEqual(expected);
    }
    expect(t.log.lines.filter((l) => l.startsWith('[otto] Invalid filterJson param'))).toHaveLength(bad.length);
  });

  it('answers 400 with the issues for a limit or offset out of range', async () => {
    t = await startApi();
    for (const filter of [{ limit: 0 }, { limit: 1.5 }, { limit: 100000 }, { offset: -1 }, { queryText: 'x'.repeat(201) }]) {
      const res = await t.list(filter);
      expect(res.status, JSON.stringify(filter)).toBe(400);
      expect(res.json).toMatchObject({ code: 'INVALID_PARAMS', issues: [expect.objectContaining({ path: expect.any(String) })] });
    }
  });

  it('finds customers by word prefix, folding diacritics, best matches first', async () => {
    t = await startApi();
    await t.create({ full_name: 'Ada Lovelace', email: 'ada@analytical.org', phone: '555 0101' });
    await t.create({ full_name: 'Zoë Smith', email: 'zoe.smith@example.com', phone: '555 0102' });
    await t.create({ full_name: 'Bob Ada', email: 'bob@example.com', phone: '555 0103' });
    await t.create({ full_name: 'Grace Hopper', email: 'grace@navy.mil', phone: '555 0104' });
    const names = async (queryText: string) =>
      customers.parse((await t.list({ queryText })).json).map((c) => c.full_name);
    expect(await names('smi')).toEqual(['Zoë Smith']);
    expect(await names('zoe')).toEqual(['Zoë Smith']);
    expect(await names('ZOË')).toEqual(['Zoë Smith']);
    expect(await names('ada')).toEqual(['Ada Lovelace', 'Bob Ada']);
    expect(await names('ada bob')).toEqual(['Bob Ada']);
    expect(await names('grace@navy.mil')).toEqual(['Grace Hopper']);
    expect(await names('0103')).toEqual(['Bob Ada']);
    expect((await t.list({ queryText: 'ada' })).headers.get(totalCountHeader)).toBe('2');
  });

  it('lists a search matching more than maxRankedMatches customers newest first, paging without overlap', async () => {
    t = await startApi({ seed: false });
    const count = maxRankedMatches + 5;
    t.api.store.transaction(() => {
      for (let i = 1; i <= count; i++) {
        t.api.store.run('INSERT INTO customers (full_name, phone, email, created_dt, modified_dt) VALUES (?, ?, ?, ?, ?)', [
          `Common ${i}`,
          `555 ${i}`,
          `c${i}@example.com`,
          i,
          count - i,
        ]);
      }
    });
    const ids = async (offset: number) =>
      customers.parse((await t.list({ queryText: 'common', limit: 10, offset })).json).map((c) => Number(c.id));
    const res = await t.list({ queryText: 'common' });
    expect(res.headers.get(totalCountHeader)).toBe(String(count));
    expect(await ids(0)).toEqual([...Array(10).keys()].map((k) => count - k));
    expect(await ids(count - 3)).toEqual([3, 2, 1]);
    expect(await ids(count)).toEqual([]);
  });

  it('finds longer words by prefix whether or not the typed word is itself a word of the index', async () => {
    t = await startApi({ seed: false });
    await t.create({ full_name: 'Ann Smith', email: 'ann@gmail.com', phone: '555 0101' });
    await t.create({ full_name: 'Bob Smithson', email: 'bob@gmailx.com', phone: '555 0102' });
    await t.create({ full_name: 'Cy Jones', email: 'cy@mail.com', phone: '555 0103' });
    const names = async (queryText: string) =>
      customers
        .parse((await t.list({ queryText })).json)
        .map((c) => c.full_name)
        .sort();
    expect(await names('smith')).toEqual(['Ann Smith', 'Bob Smithson']);
    expect(await names('gmail')).toEqual(['Ann Smith', 'Bob Smithson']);
    expect(await names('jones')).toEqual(['Cy Jones']);
    expect(await names('mail')).toEqual(['Cy Jones']);
    expect((await t.call('PUT', '/api/customers/3', { full_name: 'Cy Jonesy', email: 'cy@mail.com', phone: '555 0103' })).status).toBe(200);
    expect(await names('jones')).toEqual(['Cy Jonesy']);
  });

  it('lists everyone, newest modified first, when the search text is blank', async () => {
    t = await startApi({ seed: { count: 12, fakerSeed: 2 } });
    expect((await t.list({ queryText: '   ' })).json).toEqual((await t.list()).json);
  });

  it('survives any search text a person can type', async () => {
    t = await startApi({ seed: { count: 30, fakerSeed: 5 } });
    await t.create({ full_name: "Seán O'Brien", email: 'sean@acme-corp.com', phone: '+353 1 555 0199' });
    const hostile = [
      "O'Brien", 'acme-corp', 'AND', 'OR', 'NOT', 'NEAR', '"', '""', '*', '(', ')', '^', ':', '-', '+',
      'sean@acme-corp.com', '😀', '👩‍👩‍👧', "'; DROP TABLE customers; --", 'a"b', 'col:term', 'NEAR(a b)',
      '\u0000', '\\', '%', '_', '{', '}', '[', ']', '\u202e', 'ß', 'İstanbul', '中文', 'x'.repeat(200),
    ];
    for (const queryText of hostile) {
      const res = await t.list({ queryText });
      expect(res.status, queryText).toBe(200);
      customers.parse(res.json);
      expect(Number(res.headers.get(totalCountHeader)), queryText).toBeGreaterThanOrEqual(0);
    }
    const found = async (q: string) => customers.parse((await t.list({ queryText: q })).json).map((c) => c.full_name);
    expect(await found("O'Brien")).toContain("Seán O'Brien");
    expect(await found('acme-corp')).toContain("Seán O'Brien");
    expect(await found('sean@acme-corp.com')).toContain("Seán O'Brien");
    expect(await found('😀')).toEqual([]);
    expect(await found('"')).toEqual([]);
    expect(t.api.store.get('SELECT count(*) AS n FROM customers')).toEqual({ n: 31 });
  });
});

describe('the list total (one row kept by triggers, migration 13)', () => {
  it('stays exactly what counting the live customers gives through create, import, archive, restore, delete, undo and raw SQL', async () => {
    t = await startApi({ seed: { count: 40 } });
    const byHand = () => t.api.store.get<{ n: number }>('SELECT count(*) AS n FROM customers WHERE archived_dt IS NULL')?.n;
    const expectExact = async () => {
      const total = (await t.list({ limit: 1 })).headers.get(totalCountHeader);
      expect(total).toBe(String(byHand()));
    };
    await expectExact();
    const ada = customerSchema.parse((await t.create({ full_name: 'Ada Count', email: 'ada.count@example.com', phone: '1' })).json);
    const bob = customerSchema.parse((await t.create({ full_name: 'Bob Count', email: 'bob.count@example.com', phone: '2' })).json);
    await expectExact();
    const rows = Array.from({ length: 25 }, (_, i) => ({ full_name: `Counted ${i}`, email: `counted${i}@example.com`, phone: String(i) }));
    expect((await t.call('POST', '/api/customers/import', { rows })).status).toBe(200);
    await expectExact();
    expect((await t.call('POST', '/api/imports/last/undo')).status).toBe(200);
    await expectExact();
    expect((await t.call('POST', `/api/customers/${ada.id}/archive`)).status).toBe(200);
    // Archiving twice counts once.
    await t.call('POST', `/api/customers/${ada.id}/archive`);
    await expectExact();
    expect((await t.call('DELETE', `/api/customers/${ada.id}`)).status).toBe(200);
    await expectExact();
    expect((await t.call('POST', `/api/customers/${bob.id}/archive`)).status).toBe(200);
    expect((await t.call('POST', `/api/customers/${bob.id}/restore`)).status).toBe(200);
    await expectExact();
    // Any other writer of the file (the sqlite3 shell, say) keeps it right too.
    t.api.store.exec("INSERT INTO customers (full_name, email, phone, created_dt, modified_dt, archived_dt) VALUES ('Shell', 's@example.com', '1', 1, 1, NULL), ('Shell Archived', 'sa@example.com', '1', 1, 1, 5)");
    t.api.store.exec("UPDATE customers SET archived_dt = 9 WHERE full_name = 'Shell'");
    // By exact name: a generated customer may be called Shelly, and have jobs.
    t.api.store.exec("DELETE FROM customers WHERE full_name IN ('Shell', 'Shell Archived')");
    await expectExact();
  });
});
