import { requestIdPolicy } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { requestIdHeader } from '../src/runtime/request-id';
import { sweepRequestLog } from '../src/runtime/request-log';
import { createSqliteSqlStore } from '../src/sql/sqlite-sql-store';
import { startApi, type TestApi } from './helpers';

/** Issue 34, decision 0121: a request id names one request (method, path, body) and is kept by age. */

let t: TestApi;
afterEach(() => t.api.close());

const ada = { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' };
const json = { 'content-type': 'application/json' };
const withId = (id: string, extra: Record<string, string> = {}) => ({ headers: { ...json, [requestIdHeader]: id, ...extra } });
const total = async () => Number((await t.list()).headers.get('x-total-count'));
const logged = () => t.api.store.get<{ n: number }>('SELECT count(*) AS n FROM request_log')?.n ?? 0;

describe('a request id sent again with another request', () => {
  it('is refused with 422 REQUEST_ID_REUSED when the body differs, and nothing is created or published', async () => {
    t = await startApi();
    const events: unknown[] = [];
    t.api.onChange((event) => events.push(event));
    const first = await t.call('POST', '/api/customers', ada, withId('new-customer-1'));
    expect(first.status).toBe(200);
    const other = await t.call('POST', '/api/customers', { ...ada, full_name: 'Grace Hopper' }, withId('new-customer-1'));
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toContain('application/json');
    expect(other.json).toMatchObject({ code: 'REQUEST_ID_REUSED' });
    expect((other.json as { message: string }).message).toMatch(/new-customer-1.*another request.*POST \/customers with another body/);
    expect(await total()).toBe(1);
    expect(events).toHaveLength(1);
    expect((await t.list()).json).toEqual([first.json]);
  });

  it('is refused when the path, the query or the method differs; the write it names runs nothing', async () => {
    t = await startApi();
    const created = (await t.call('POST', '/api/customers', ada, withId('id-a'))).json as { id: string; modified_dt: number };
    const second = (await t.call('POST', '/api/customers', { ...ada, email: 'b@example.com' })).json as { id: string };
    // The same body to another path, and to the same path with another method.
    const edit = { ...ada, email: 'b@example.com', phone: '555 0111' };
    const otherPath = await t.call('PATCH', `/api/customers/${second.id}`, edit, withId('id-b'));
    expect(otherPath.status, otherPath.text).toBe(200);
    const samePatchElsewhere = await t.call('PATCH', `/api/customers/${created.id}`, edit, withId('id-b'));
    expect(samePatchElsewhere.status).toBe(422);
    expect(samePatchElsewhere.json).toMatchObject({ code: 'REQUEST_ID_REUSED' });
    const otherMethod = await t.call('PUT', `/api/customers/${second.id}`, edit, withId('id-b'));
    expect(otherMethod.status).toBe(422);
    const postUnderPatchId = await t.call('POST', '/api/customers', edit, withId('id-b'));
    expect(postUnderPatchId.status).toBe(422);
    const otherQuery = await t.call('POST', '/api/customers?x=1', ada, withId('id-a'));
    expect(otherQuery.status).toBe(422);
    // Nothing of them ran: the first customer is as it was created, and there are still two.
    expect((await t.call('GET', `/api/customers/${created.id}`)).json).toEqual(created);
    expect(await total()).toBe(2);
  });

  it('the same request under the same id gets the stored answer and runs once, also after 600 other writes', async () => {
    t = await startApi();
    const events: unknown[] = [];
    t.api.onChange((event) => events.push(event));
    const first = await t.call('POST', '/api/customers', ada, withId('kept-1'));
    for (let i = 0; i < 600; i++) {
      await t.call('POST', '/api/customers', { ...ada, email: `a${i}@example.com` }, withId(`other-${i}`));
    }
    const again = await t.call('POST', '/api/customers', ada, withId('kept-1'));
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(await total()).toBe(601);
    expect(events).toHaveLength(601);
    expect(logged()).toBe(601);
  }, 120_000);

  it('keeps an answer for the age bound (24 hours) and forgets it after: the same request then runs again', async () => {
    t = await startApi();
    const first = await t.call('POST', '/api/customers', ada, withId('day-old'));
    t.clock.advance(requestIdPolicy.maxAgeMs);
    expect((await t.call('POST', '/api/customers', ada, withId('day-old'))).text).toBe(first.text);
    expect(await total()).toBe(1);
    t.clock.advance(1);
    const later = await t.call('POST', '/api/customers', ada, withId('day-old'));
    expect(later.status).toBe(200);
    expect(later.text).not.toBe(first.text);
    expect(await total()).toBe(2);
    // The old entry is gone; the new answer is what the id names now.
    const rows = t.api.store.all<{ body: string }>("SELECT body FROM request_log WHERE request_id = 'day-old'");
    expect(rows.map((r) => r.body)).toEqual([later.text]);
  });
});

describe('the sweep of the request log', () => {
  const fill = (count: number, bodyBytes: number, loggedDt: number) =>
    t.api.store.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO request_log (request_id, method, path, body_sha256, logged_dt, status, headers, body)
       SELECT 'fill-' || ? || '-' || i, 'POST', '/customers', '', ?, 200, '{}', substr(hex(zeroblob(?)), 1, ?) FROM n`,
      [count, loggedDt, loggedDt, bodyBytes, bodyBytes],
    );
  const sweep = () => createSqliteSqlStore(t.api.store).transaction((db) => sweepRequestLog(db, t.clock.now()));

  it('forgets answers older than the age bound, then the oldest beyond the count bound', async () => {
    t = await startApi();
    const now = t.clock.now();
    fill(50, 10, now - requestIdPolicy.maxAgeMs - 1);
    fill(requestIdPolicy.maxAnswers + 20, 10, now);
    await sweep();
    expect(logged()).toBe(requestIdPolicy.maxAnswers);
    const oldest = t.api.store.get<{ id: string }>('SELECT request_id AS id FROM request_log ORDER BY seq LIMIT 1')?.id;
    expect(oldest).toBe(`fill-${now}-21`);
  });

  it('forgets the oldest answers beyond the size bound', async () => {
    t = await startApi();
    const mib = 1024 * 1024;
    fill(requestIdPolicy.maxBytes / mib + 3, mib, t.clock.now());
    await sweep();
    const kept = t.api.store.get<{ n: number; bytes: number }>('SELECT count(*) AS n, sum(length(body) + length(headers)) AS bytes FROM request_log');
    expect(kept?.bytes).toBeLessThanOrEqual(requestIdPolicy.maxBytes);
    expect(kept?.n).toBe(requestIdPolicy.maxBytes / mib - 1);
  }, 60_000);
});
