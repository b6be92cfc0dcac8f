import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChangeEvent } from '@otto/api-contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChangeStream, createMockServer, type MockServer } from '../src/node';
import { capturingLogger } from './helpers';

/** Reads an event stream over real HTTP, a chunk at a time. */
async function openStream(url: string) {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal, headers: { origin: 'http://localhost:5173' } });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  async function until(condition: (text: string) => boolean): Promise<string> {
    while (!condition(text)) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`The stream ended before the expected text arrived. It sent: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    return text;
  }
  async function ended(): Promise<boolean> {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      text += decoder.decode(value, { stream: true });
    }
  }
  /** The `change` events received so far. */
  const events = () =>
    [...text.matchAll(/^event: change\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1] as string) as ChangeEvent);
  return { res, until, ended, events, close: () => abort.abort() };
}

const json = { 'content-type': 'application/json' };

describe('GET /api/changes on otto-mock-server', () => {
  let server: MockServer;
  afterEach(() => server.close());

  it('streams each committed write to every connected client as a change event', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    const a = await openStream(`${server.url}/changes`);
    const b = await openStream(`${server.url}/changes`);
    expect(a.res.status).toBe(200);
    expect(a.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(a.res.headers.get('cache-control')).toMatch(/no-cache/);
    expect(a.res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    await a.until((t) => t.includes(': connected'));
    await b.until((t) => t.includes(': connected'));

    const created = (await (
      await fetch(`${server.url}/customers`, { method: 'POST', headers: json, body: JSON.stringify({ full_name: 'Sia Stream', email: 's@example.com', phone: '1' }) })
    ).json()) as { id: string };
    // Refused writes publish nothing: the next event either client sees is the rename.
    await fetch(`${server.url}/customers/${created.id}`, { method: 'PUT', headers: json, body: JSON.stringify({ full_name: 'x' }) });
    await fetch(`${server.url}/customers/${created.id}`, { method: 'PUT', headers: json, body: JSON.stringify({ full_name: 'Sia Renamed', email: 's@example.com', phone: '1' }) });

    for (const client of [a, b]) {
      await client.until(() => client.events().length >= 2);
      expect(client.events()).toEqual([
        { entity: 'customer', kind: 'created', ids: [created.id] },
        { entity: 'customer', kind: 'updated', ids: [created.id] },
      ]);
    }
    a.close();
    b.close();
  });

  it('ends open streams cleanly when the server closes', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    const client = await openStream(`${server.url}/changes`);
    await client.until((t) => t.includes(': connected'));
    await server.close();
    expect(await client.ended()).toBe(true);
  });

  it('leaves other methods on the path to the API (404 Not found)', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    const res = await fetch(`${server.url}/changes`, { method: 'POST', headers: json, body: '{}' });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not found');
  });
});

describe('createChangeStream', () => {
  let http: Server | undefined;
  afterEach(async () => {
    http?.closeAllConnections();
    await new Promise((resolve) => http?.close(resolve));
  });

  async function serve(heartbeatMs: number) {
    const listeners = new Set<(event: ChangeEvent) => void>();
    const stream = createChangeStream(
      (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      { heartbeatMs, corsOrigin: 'http://localhost:5173' },
    );
    http = createServer((req, res) => {
      if (!stream.serve(req, res)) res.writeHead(404).end('Not found');
    });
    await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/changes`;
    return { stream, listeners, url };
  }

  it('sends heartbeat comments while nothing changes', async () => {
    const { url } = await serve(20);
    const client = await openStream(url);
    expect(client.res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    await client.until((t) => t.includes(': heartbeat\n\n'));
    client.close();
  });

  it('unsubscribes a client that disconnects', async () => {
    const { stream, listeners, url } = await serve(60_000);
    const client = await openStream(`${url}?since=now`);
    await client.until((t) => t.includes(': connected'));
    expect(stream.clients).toBe(1);
    expect(listeners.size).toBe(1);
    client.close();
    await vi.waitFor(() => expect(listeners.size).toBe(0), { timeout: 5_000 });
    expect(stream.clients).toBe(0);
  });
});
