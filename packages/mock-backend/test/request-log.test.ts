import { afterEach, describe, expect, it } from 'vitest';
import { serializeRequest, safeToResend } from '../src/browser/protocol';
import { requestIdHeader } from '../src/runtime/request-id';
import { startApi, type TestApi } from './helpers';

let t: TestApi;
afterEach(() => t.api.close());

const ada = { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' };
const json = { 'content-type': 'application/json' };

describe('a write sent again under the same request id (x-otto-request-id)', { timeout: 60_000 }, () => {
  it('runs once: the second sending gets the first answer, and nothing is created twice or published twice', async () => {
    t = await startApi();
    const events: unknown[] = [];
    t.api.onChange((event) => events.push(event));
    const headers = { ...json, [requestIdHeader]: 'write-1' };
    const first = await t.call('POST', '/api/customers', ada, { headers });
    t.clock.advance();
    const again = await t.call('POST', '/api/customers', ada, { headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(Number((await t.list()).headers.get('x-total-count'))).toBe(1);
    expect(events).toHaveLength(1);
  });

  it('answers a PATCH sent again with its first answer, not a 412 for its own change', async () => {
    t = await startApi();
    const created = (await t.create(ada)).json as { id: string; modified_dt: number };
    const etag = (await t.call('GET', `/api/customers/${created.id}`)).headers.get('etag') as string;
    const headers = { ...json, 'if-match': etag, [requestIdHeader]: 'patch-1' };
    t.clock.advance();
    const first = await t.call('PATCH', `/api/customers/${created.id}`, { phone: '555 0199' }, { headers });
    t.clock.advance();
    const again = await t.call('PATCH', `/api/customers/${created.id}`, { phone: '555 0199' }, { headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('runs writes with different ids, or none, each time; a refused write is not kept, so sending it again runs it again', async () => {
    t = await startApi();
    await t.call('POST', '/api/customers', ada, { headers: { ...json, [requestIdHeader]: 'a' } });
    await t.call('POST', '/api/customers', ada, { headers: { ...json, [requestIdHeader]: 'b' } });
    await t.call('POST', '/api/customers', ada);
    await t.call('POST', '/api/customers', ada);
    expect(Number((await t.list()).headers.get('x-total-count'))).toBe(4);
    const bad = await t.call('POST', '/api/jobs', { title: '' }, { headers: { ...json, [requestIdHeader]: 'bad' } });
    expect(bad.status).toBe(400);
    const badAgain = await t.call('POST', '/api/jobs', { title: '' }, { headers: { ...json, [requestIdHeader]: 'bad' } });
    expect(badAgain.status).toBe(400);
  });

  it('ignores an id that is not a short printable token (the write runs as usual)', async () => {
    t = await startApi();
    const headers = { ...json, [requestIdHeader]: 'x'.repeat(101) };
    await t.call('POST', '/api/customers', ada, { headers });
    await t.call('POST', '/api/customers', ada, { headers });
    expect(Number((await t.list()).headers.get('x-total-count'))).toBe(2);
  });
});

describe('the relays', () => {
  it('give every write they serialize a request id, and may send it again to a new owner', async () => {
    const post = await serializeRequest(new Request('http://x/api/customers', { method: 'POST', body: '{}' }));
    const id = post.headers.find(([name]) => name === requestIdHeader)?.[1];
    expect(id).toMatch(/^[\w-]{20,}$/);
    expect(safeToResend(post)).toBe(true);
    const other = await serializeRequest(new Request('http://x/api/customers', { method: 'POST', body: '{}' }));
    expect(other.headers.find(([name]) => name === requestIdHeader)?.[1]).not.toBe(id);
    const get = await serializeRequest(new Request('http://x/api/customers'));
    expect(get.headers.some(([name]) => name === requestIdHeader)).toBe(false);
    expect(safeToResend(get)).toBe(true);
    expect(safeToResend({ ...post, headers: [] })).toBe(false);
  });
});
