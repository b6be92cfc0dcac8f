import type { ChangeEvent } from '@otto/api-contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres } from '@otto/postgres-testing/vitest';
import { createMockServer, type MockServer } from '../src/node';
import { capturingLogger } from './helpers';

/**
 * otto-mock-server processes on PostgreSQL: what clients see while PostgreSQL is down and after it
 * is back, and several servers on one database (one truth, one change feed, one seed).
 */

const json = { 'content-type': 'application/json' };

/** Reads an event stream over real HTTP (as test/change-stream.test.ts), in the background. */
async function openStream(url: string) {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal, headers: { origin: 'http://localhost:5173' } });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  async function until(condition: (text: string) => boolean, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!condition(text)) {
      if (ended) throw new Error(`The stream ended before the expected text arrived. It sent: ${text}`);
      if (Date.now() > deadline) throw new Error(`The expected text did not arrive in ${timeoutMs} ms. The stream sent: ${text}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return text;
  }
  const events = () => [...text.matchAll(/^event: change\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1] as string) as ChangeEvent);
  return { res, until, events, close: () => abort.abort() };
}

async function createCustomer(base: string, name: string): Promise<{ id: string }> {
  const res = await fetch(`${base}/customers`, { method: 'POST', headers: json, body: JSON.stringify({ full_name: name, email: 'p@example.com', phone: '555 0100' }) });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { id: string };
}

describeIfPostgres('otto-mock-server on PostgreSQL: down and back', () => {
  let pg: TestPostgres;
  let server: MockServer;
  const log = capturingLogger();
  beforeAll(async () => {
    pg = await startTestPostgres();
    server = await createMockServer({ port: 0, database: pg.connectionString, seed: { count: 5, fakerSeed: 1 }, logger: log.logger });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await pg?.stop();
  });

  it('answers 503 naming PostgreSQL while it is down, and 200 again once it is back, without a restart', async () => {
    expect((await fetch(`${server.url}/customers`)).status).toBe(200);
    const stream = await openStream(`${server.url}/changes`);
    await stream.until((t) => t.includes(': connected'));
    await pg.halt();
    try {
      const requests = [
        fetch(`${server.url}/customers`),
        fetch(`${server.url}/jobs/counts`),
        fetch(`${server.url}/customers`, { method: 'POST', headers: json, body: JSON.stringify({ full_name: 'While Down', email: 'd@example.com', phone: '1' }) }),
        fetch(`${server.url}/customers`, { method: 'POST', headers: { ...json, 'x-otto-request-id': 'down-1' }, body: JSON.stringify({ full_name: 'While Down', email: 'd@example.com', phone: '1' }) }),
      ];
      for (const res of await Promise.all(requests)) {
        const body = (await res.json()) as { code: string; message: string };
        expect(res.status, JSON.stringify(body)).toBe(503);
        expect(body.code).toBe('SERVICE_UNAVAILABLE');
        expect(body.message).toMatch(/PostgreSQL/);
        expect(body.message).toMatch(/not reachable|connection/i);
      }
    } finally {
      await pg.start();
    }
    // Back: the pool reconnects by itself.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${server.url}/customers`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    const created = await createCustomer(server.url, 'After The Outage');
    expect((await fetch(`${server.url}/customers/${created.id}`)).status).toBe(200);
    // Nothing of the writes refused while it was down was saved.
    const down = await fetch(`${server.url}/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: 'While Down' }))}`);
    expect(down.headers.get('x-total-count')).toBe('0');
    // The change feed of this server still works (local publish).
    await stream.until(() => stream.events().some((e) => e.ids.includes(created.id)));
    stream.close();
  }, 60_000);
});

describeIfPostgres('otto-mock-server on PostgreSQL: several processes, one truth', () => {
  let pg: TestPostgres;
  const servers: MockServer[] = [];
  const log = capturingLogger();
  beforeAll(async () => {
    pg = await startTestPostgres();
  }, 120_000);
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await pg?.stop();
  });

  it('two servers starting at once on an empty database migrate and seed it exactly once', async () => {
    const database = await pg.createDatabase('otto_twins');
    const started = await Promise.all(
      [0, 1, 2].map(() => createMockServer({ port: 0, database, seed: { count: 50, fakerSeed: 4 }, logger: log.logger })),
    );
    servers.push(...started);
    for (const s of started) {
      const res = await fetch(`${s.url}/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`);
      expect(res.headers.get('x-total-count')).toBe('50');
    }
  }, 60_000);

  it('a customer created through A is readable through B, and B\'s SSE clients hear of it', async () => {
    const database = await pg.createDatabase('otto_pair');
    const a = await createMockServer({ port: 0, database, seed: false, logger: log.logger });
    const b = await createMockServer({ port: 0, database, seed: false, logger: log.logger });
    servers.push(a, b);
    const stream = await openStream(`${b.url}/changes`);
    expect(stream.res.status).toBe(200);
    await stream.until((t) => t.includes(': connected'));

    const created = await createCustomer(a.url, 'Made Through A');
    const viaB = await fetch(`${b.url}/customers/${created.id}`);
    expect(viaB.status).toBe(200);
    expect(((await viaB.json()) as { full_name: string }).full_name).toBe('Made Through A');

    await stream.until(() => stream.events().some((e) => e.ids.includes(created.id)));
    const event = stream.events().find((e) => e.ids.includes(created.id));
    expect(event).toMatchObject({ entity: 'customer', kind: 'created', ids: [created.id] });

    // And the other way round, a job through B heard on A.
    const streamA = await openStream(`${a.url}/changes`);
    await streamA.until((t) => t.includes(': connected'));
    const job = await fetch(`${b.url}/jobs`, { method: 'POST', headers: json, body: JSON.stringify({ customer_id: created.id, title: 'Via B', status: 'quote' }) });
    expect(job.status).toBe(200);
    const jobId = ((await job.json()) as { id: string }).id;
    await streamA.until(() => streamA.events().some((e) => e.entity === 'job' && e.ids.includes(jobId)));

    // PostgreSQL restarts: B's LISTEN connection comes back by itself and B hears A's writes again.
    await pg.restart();
    let again: { id: string } | undefined;
    for (let i = 0; i < 50 && !again; i++) {
      const res = await fetch(`${a.url}/customers`, { method: 'POST', headers: json, body: JSON.stringify({ full_name: 'After Restart', email: 'r@example.com', phone: '1' }) });
      if (res.status === 200) again = (await res.json()) as { id: string };
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(again, 'A answers again after PostgreSQL restarted').toBeDefined();
    // The listener reconnects with a backoff; NOTIFYs sent before it is back are lost, so B tells
    // its clients that customers and jobs may have changed (events without ids), then hears A's writes again.
    await stream.until(() => stream.events().some((e) => e.entity === 'customer' && e.ids.length === 0));
    await stream.until(() => stream.events().some((e) => e.entity === 'job' && e.ids.length === 0));
    const probe = await createCustomer(a.url, 'Heard Again');
    const heard = await stream
      .until(() => stream.events().some((e) => e.ids.includes(probe.id)), 5_000)
      .then(() => true)
      .catch(() => false);
    expect(heard, 'B hears A after PostgreSQL restarted').toBe(true);
    stream.close();
    streamA.close();
  }, 60_000);
});
