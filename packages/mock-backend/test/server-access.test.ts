// Who the HTTP server lets in (decision 0050), over real HTTP on 127.0.0.1: every refusal is checked
// for its status, its words, and that the database did not change.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { apiErrorSchema, totalCountHeader } from '@otto/api-contract';
import { formatReport, runConformance } from '@otto/api-contract/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/node';
import { capturingLogger } from './helpers';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with exactly these headers (fetch would not let a test set Host). */
function raw(server: MockServer, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, method, path, headers: { host: `127.0.0.1:${server.port}`, ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The error body in words: the contract's `{ code, message }`. */
function errorOf(answer: Answer, code: string): string {
  const body = apiErrorSchema.parse(JSON.parse(answer.text));
  expect(body.code).toBe(code);
  expect(body.message.length).toBeGreaterThan(20);
  return body.message;
}

const customer = JSON.stringify({ full_name: 'Mallory Intruder', email: 'mallory@example.com', phone: '555 0666' });

async function customerCount(server: MockServer): Promise<number> {
  const res = await server.api.fetch(new Request('http://localhost/api/customers'));
  return Number(res.headers.get(totalCountHeader));
}

describe('otto-mock-server on loopback, without a token', () => {
  let server: MockServer;
  let before: number;
  beforeAll(async () => {
    server = await createMockServer({ port: 0, seed: { count: 5, fakerSeed: 1 }, logger: capturingLogger().logger, corsOrigin: ['https://app.example.com'] });
    before = await customerCount(server);
  });
  afterAll(async () => {
    // Whatever the refused requests tried, the data is as it was.
    expect(await customerCount(server)).toBe(before);
    await server.close();
  });

  it('refuses a page of another site (a hostile Origin) with 403, reads and writes alike, and gives it no CORS header', async () => {
    const read = await raw(server, 'GET', '/api/customers', { origin: 'https://evil.example' });
    expect(read.status).toBe(403);
    expect(errorOf(read, 'ORIGIN_NOT_ALLOWED')).toContain('https://evil.example');
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(read.headers['x-total-count']).toBeUndefined();

    const write = await raw(server, 'POST', '/api/customers', { origin: 'https://evil.example', 'content-type': 'application/json' }, customer);
    expect(write.status).toBe(403);
    errorOf(write, 'ORIGIN_NOT_ALLOWED');
    expect(await customerCount(server)).toBe(before);
  });

  it('answers no preflight for a hostile origin, and one for a localhost origin', async () => {
    const hostile = await raw(server, 'OPTIONS', '/api/customers', { origin: 'http://evil.example', 'access-control-request-method': 'POST' });
    expect(hostile.status).toBe(403);
    expect(hostile.headers['access-control-allow-origin']).toBeUndefined();

    const local = await raw(server, 'OPTIONS', '/api/customers/1', {
      origin: 'http://127.0.0.1:3000',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type, authorization',
    });
    expect(local.status).toBe(204);
    expect(local.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    expect(local.headers['access-control-allow-headers']).toBe('content-type, authorization');
    expect(local.headers.vary).toBe('Origin');
  });

  it('refuses a Host it does not answer to (DNS rebinding) with 421, and keeps the data', async () => {
    for (const host of [`evil.example:${server.port}`, 'evil.example', `localhost.evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`]) {
      const read = await raw(server, 'GET', '/api/customers', { host });
      expect(read.status, host).toBe(421);
      expect(errorOf(read, 'MISDIRECTED_REQUEST')).toContain('--allowed-host');
    }
    // The page of a rebinding attack is same-origin with its own name: Origin and Host are both its.
    const write = await raw(
      server,
      'POST',
      '/api/customers',
      { host: `evil.example:${server.port}`, origin: `http://evil.example:${server.port}`, 'content-type': 'application/json' },
      customer,
    );
    expect(write.status).toBe(421);
    expect(await customerCount(server)).toBe(before);
  });

  it('refuses a text/plain or form-encoded write (what any site can send without asking) with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const write = await raw(server, 'POST', '/api/customers', { 'content-type': type }, customer);
      expect(write.status, type).toBe(415);
      expect(errorOf(write, 'UNSUPPORTED_MEDIA_TYPE')).toContain('application/json');
    }
    const noType = await raw(server, 'PUT', '/api/customers/1', {}, customer);
    expect(noType.status).toBe(415);
    expect(await customerCount(server)).toBe(before);
  });

  it('lets localhost origins on any port, and a named origin, read and write', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1', 'http://[::1]:8080', 'https://app.example.com']) {
      const read = await raw(server, 'GET', '/api/customers', { origin, host: `localhost:${server.port}` });
      expect(read.status, origin).toBe(200);
      expect(read.headers['access-control-allow-origin']).toBe(origin);
      expect(read.headers['access-control-expose-headers']).toBe(totalCountHeader);
    }
    const write = await raw(server, 'POST', '/api/customers', { origin: 'http://localhost:5173', 'content-type': 'application/json; charset=utf-8' }, customer);
    expect(write.status).toBe(200);
    expect(JSON.parse(write.text)).toMatchObject({ full_name: 'Mallory Intruder' });
    before += 1;
  });

  it('refuses a body declared larger than the API takes with 413 before reading it', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(`POST /api/customers HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"full_name":`);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('"code":"PAYLOAD_TOO_LARGE"');
    expect(await customerCount(server)).toBe(before);
  });

  it('answers headers larger than its limit with 431 in words', async () => {
    const answer = await raw(server, 'GET', '/api/customers', { 'x-filler': 'x'.repeat(20_000) });
    expect(answer.status).toBe(431);
    errorOf(answer, 'HEADERS_TOO_LARGE');
  });

  it('refuses CORS origin "*"', async () => {
    await expect(createMockServer({ port: 0, seed: false, corsOrigin: '*' })).rejects.toThrow(/"\*" is not allowed/);
  });
});

describe('otto-mock-server with a token', () => {
  let server: MockServer;
  const token = 'correct-horse-battery-staple';
  beforeAll(async () => {
    server = await createMockServer({ port: 0, seed: { count: 3, fakerSeed: 2 }, logger: capturingLogger().logger, token });
  });
  afterAll(() => server.close());

  it('answers 401 in words to a call without the token or with another, and changes nothing', async () => {
    const before = await customerCount(server);
    const missing = await raw(server, 'GET', '/api/customers');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="otto"');
    expect(errorOf(missing, 'UNAUTHORIZED')).toContain('Authorization: Bearer');

    const wrong = await raw(server, 'POST', '/api/customers', { authorization: 'Bearer not-the-token', 'content-type': 'application/json' }, customer);
    expect(wrong.status).toBe(401);
    expect(errorOf(wrong, 'UNAUTHORIZED')).toContain('not the one');
    const inQuery = await raw(server, 'GET', `/api/customers?token=${token}`);
    expect(inQuery.status).toBe(401);
    expect(await customerCount(server)).toBe(before);

    const right = await raw(server, 'GET', '/api/customers', { authorization: `Bearer ${token}` });
    expect(right.status).toBe(200);
  });

  it('wants the token on the change feed too, there also as a query parameter (EventSource sends no headers)', async () => {
    expect((await raw(server, 'GET', '/api/changes')).status).toBe(401);
    expect((await raw(server, 'GET', '/api/changes?token=wrong-token')).status).toBe(401);
    const res = await fetch(`${server.url}/changes?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await res.body?.cancel();
  });

  it('keeps the OpenAPI document and the reference page public (they hold no data)', async () => {
    expect((await raw(server, 'GET', '/api/openapi.json')).status).toBe(200);
    expect((await raw(server, 'GET', '/api/docs')).status).toBe(200);
  });

  it('passes the conformance kit when the kit is given the token', async () => {
    const report = await runConformance({ fetch, baseUrl: server.url, token });
    expect(report.failed, formatReport(report)).toBe(0);
    const without = await runConformance({ fetch, baseUrl: server.url, only: ['customers.create'] });
    expect(without.failed).toBeGreaterThan(0);
  });
});

describe('otto-mock-server beyond loopback', () => {
  it('makes a token when none is given and wants it from every caller', async () => {
    const server = await createMockServer({ port: 0, host: '0.0.0.0', seed: false, logger: capturingLogger().logger });
    try {
      expect(server.token).toMatch(/^[\w-]{32}$/);
      expect((await raw(server, 'GET', '/api/customers')).status).toBe(401);
      expect((await raw(server, 'GET', '/api/customers', { authorization: `Bearer ${server.token}` })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('takes a token per person or device from a tokens file, and stops taking one deleted from it, without a restart (a device’s pushes too)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'otto-tokens-'));
    const file = join(dir, 'tokens');
    const van = 'van-phone-token-0123456789abcdef';
    const office = 'office-laptop-token-fedcba9876543210';
    writeFileSync(file, `# one per device\nvan-phone: ${van}\noffice: ${office}\nshort: tooshort\n`);
    const server = await createMockServer({ port: 0, host: '0.0.0.0', token: 'the-shared-token-42', tokensFile: file, seed: false, logger: capturingLogger().logger });
    const push = (token: string) =>
      raw(server, 'POST', '/api/sync/push', { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        JSON.stringify({ writes: [{ request_id: `push-${token.slice(0, 6)}`, method: 'POST', path: '/customers', body: { full_name: 'From The Van', email: '', phone: '555 0107' } }] }));
    try {
      for (const token of [van, office, 'the-shared-token-42']) expect((await raw(server, 'GET', '/api/customers', { authorization: `Bearer ${token}` })).status).toBe(200);
      expect((await raw(server, 'GET', '/api/customers', { authorization: 'Bearer tooshort' })).status).toBe(401);
      expect((await push(van)).status).toBe(200);
      // The van's phone is lost: its line goes, and its token with it (the file is looked at once a second).
      writeFileSync(file, `office: ${office}\n`);
      await expect.poll(async () => (await raw(server, 'GET', '/api/customers', { authorization: `Bearer ${van}` })).status, { timeout: 5_000 }).toBe(401);
      expect((await push(van)).status).toBe(401);
      expect((await raw(server, 'GET', '/api/customers', { authorization: `Bearer ${office}` })).status).toBe(200);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers to a name given with allowedHosts, and to no other', async () => {
    const server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger, allowedHosts: ['otto.lan'] });
    try {
      expect((await raw(server, 'GET', '/api/customers', { host: `otto.lan:${server.port}` })).status).toBe(200);
      expect((await raw(server, 'GET', '/api/customers', { host: `other.lan:${server.port}` })).status).toBe(421);
    } finally {
      await server.close();
    }
  });
});

describe('otto-mock-server limits', () => {
  it('answers a request on a connection past maxConnections with 503 in words (change feeds count apart)', async () => {
    const server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger, serverLimits: { maxConnections: 1 } });
    let socket: Socket | undefined;
    try {
      const feed = await fetch(`${server.url}/changes`);
      expect(feed.status).toBe(200);
      // One connection let in, kept open after its answer (keep-alive).
      const first = await new Promise<string>((resolve, reject) => {
        const s = connect(server.port, '127.0.0.1', () => s.write(`GET /api/customers HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`));
        socket = s;
        s.once('data', (chunk) => resolve(chunk.toString()));
        s.once('error', reject);
      });
      expect(first).toMatch(/^HTTP\/1\.1 200/);
      const extra = await raw(server, 'GET', '/api/customers');
      expect(extra.status).toBe(503);
      errorOf(extra, 'SERVICE_UNAVAILABLE');
      await feed.body?.cancel();
    } finally {
      socket?.destroy();
      await server.close();
    }
  });

  it('answers a client that does not finish its headers in time with 408 in words', async () => {
    const server = await createMockServer({
      port: 0,
      seed: false,
      logger: capturingLogger().logger,
      serverLimits: { headersTimeoutMs: 300, requestTimeoutMs: 600, timeoutCheckIntervalMs: 100 },
    });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => socket.write(`GET /api/customers HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
    } finally {
      await server.close();
    }
  });
});
