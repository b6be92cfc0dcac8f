// Fair connections (decision 0131), over real sockets to 127.0.0.1 only: one peer (source address
// 127.0.0.2, which Linux routes over loopback) holds many idle connections or change streams, and
// another client's calls still answer. Every wait is bounded.
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { apiErrorSchema } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/node';
import { capturingLogger } from './helpers';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const greedyPeer = '127.0.0.2';
let server: MockServer | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

/** One request on a fresh connection, from `localAddress`, answered within 5 s or failed. */
function call(s: MockServer, method: string, path: string, options: { from?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: s.port,
        method,
        path,
        agent: false,
        localAddress: options.from ?? '127.0.0.1',
        timeout: 5_000,
        headers: { host: `127.0.0.1:${s.port}`, ...options.headers, ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} got no answer within 5 s`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Opens `count` TCP connections from the greedy peer that send nothing; resolves once each is connected or refused. */
async function idleConnections(s: MockServer, count: number): Promise<void> {
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect({ port: s.port, host: '127.0.0.1', localAddress: greedyPeer });
          sockets.push(socket);
          socket.once('connect', () => resolve());
          socket.once('error', () => resolve());
          socket.once('close', () => resolve());
        }),
    ),
  );
}

/** Opens `count` change streams from the greedy peer; resolves with each one's status line once it has one. */
function changeStreams(s: MockServer, count: number): Promise<string[]> {
  return keptOpenCalls(s, count, greedyPeer, '/api/changes');
}

/** `count` connections from `from`, each sending `GET path` and kept open; resolves with each one's status line. */
function keptOpenCalls(s: MockServer, count: number, from: string, path: string): Promise<string[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<string>((resolve) => {
          const socket = connect({ port: s.port, host: '127.0.0.1', localAddress: from }, () =>
            socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n\r\n`),
          );
          sockets.push(socket);
          let text = '';
          socket.on('data', (chunk) => {
            text += chunk.toString();
            if (text.includes('\r\n')) resolve(text.slice(0, text.indexOf('\r\n')));
          });
          socket.once('error', () => resolve('closed'));
          socket.once('close', () => resolve(text ? text.slice(0, text.indexOf('\r\n')) : 'closed'));
        }),
    ),
  );
}

function errorCode(answer: Answer): string {
  const body = apiErrorSchema.parse(JSON.parse(answer.text));
  expect(body.message.length).toBeGreaterThan(20);
  return body.code;
}

describe('fair connections', () => {
  it("300 idle connections from one peer do not stop another client's call", async () => {
    server = await createMockServer({ port: 0, seed: { count: 3, fakerSeed: 1 }, logger: capturingLogger().logger });
    await idleConnections(server, 300);
    expect((await call(server, 'GET', '/api/customers')).status).toBe(200);
  });

  it('nor when the server wants a token (as it does beyond loopback), and calls without it take no shared place', async () => {
    server = await createMockServer({
      port: 0,
      seed: { count: 3, fakerSeed: 1 },
      logger: capturingLogger().logger,
      token: 'a-team-token',
      serverLimits: { maxConnections: 8 },
    });
    await idleConnections(server, 300);
    // Twenty connections from a third address, each refused for want of the token and kept open.
    const lines = await keptOpenCalls(server, 20, '127.0.0.3', '/api/customers');
    expect(lines.every((l) => l.startsWith('HTTP/1.1 401')), lines.join('; ')).toBe(true);
    expect((await call(server, 'GET', '/api/customers', { headers: { authorization: 'Bearer a-team-token' } })).status).toBe(200);
  });

  it('many change streams from one peer do not starve ordinary calls, and the extra ones are refused in words', async () => {
    server = await createMockServer({ port: 0, seed: { count: 3, fakerSeed: 1 }, logger: capturingLogger().logger });
    const lines = await changeStreams(server, 300);
    const opened = lines.filter((l) => l.startsWith('HTTP/1.1 200')).length;
    expect(opened).toBeGreaterThan(0);
    expect(opened).toBeLessThanOrEqual(8);
    expect(lines.filter((l) => l.startsWith('HTTP/1.1 503')).length).toBeGreaterThan(0);
    expect((await call(server, 'GET', '/api/customers')).status).toBe(200);
    expect((await call(server, 'GET', '/api/customers', { from: greedyPeer })).status).toBe(200);
    const refused = await call(server, 'GET', '/api/changes', { from: greedyPeer });
    expect(refused.status).toBe(503);
    expect(errorCode(refused)).toBe('SERVICE_UNAVAILABLE');
  });

  it('answers a connection that sends nothing with 408 in words and closes it', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger, serverLimits: { idleTimeoutMs: 200 } });
    const answer = await new Promise<string | undefined>((resolve) => {
      const socket = connect({ port: server!.port, host: '127.0.0.1' });
      sockets.push(socket);
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      const give = setTimeout(() => resolve(undefined), 10_000);
      socket.once('close', () => {
        clearTimeout(give);
        resolve(text);
      });
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
  });

  it('closes an idle keep-alive connection after its answer without another answer', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger, serverLimits: { idleTimeoutMs: 200 } });
    const received = await new Promise<string | undefined>((resolve) => {
      const socket = connect({ port: server!.port, host: '127.0.0.1' }, () => socket.write(`GET /api/customers HTTP/1.1\r\nHost: 127.0.0.1:${server!.port}\r\n\r\n`));
      sockets.push(socket);
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      const give = setTimeout(() => resolve(undefined), 10_000);
      socket.once('close', () => {
        clearTimeout(give);
        resolve(text);
      });
    });
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received?.match(/HTTP\/1\.1/g)).toHaveLength(1);
  });

  it('keeps a connection that sent a request open while its answer streams (the change feed)', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger, serverLimits: { idleTimeoutMs: 200 } });
    const feed = await fetch(`${server.url}/changes`);
    expect(feed.status).toBe(200);
    const reader = feed.body!.getReader();
    await reader.read();
    // Well past the idle timeout, a change still arrives on the same stream.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await call(server, 'POST', '/api/customers', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ full_name: 'Still Here', email: 'still@example.com', phone: '555 0100' }) })).status).toBe(200);
    let text = '';
    while (!text.includes('event: change')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain('event: change');
    await reader.cancel();
  });
});

describe('answers to what a client may send', () => {
  it('answers TRACE, CONNECT and PROPFIND with 501 in words, never 500', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    for (const method of ['TRACE', 'PROPFIND']) {
      const answer = await call(server, method, '/api/customers');
      expect(answer.status, method).toBe(501);
      expect(errorCode(answer)).toBe('METHOD_NOT_ALLOWED');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    const connectAnswer = await new Promise<string>((resolve) => {
      const socket = connect({ port: server!.port, host: '127.0.0.1' }, () => socket.write(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`));
      sockets.push(socket);
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.once('close', () => resolve(text));
      socket.once('error', () => resolve(text));
    });
    expect(connectAnswer).toMatch(/^HTTP\/1\.1 501/);
    expect(connectAnswer).toContain('"code":"METHOD_NOT_ALLOWED"');
  });

  it('answers a malformed JSON body with 400 without echoing the parser', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    const answer = await call(server, 'POST', '/api/customers', { headers: { 'content-type': 'application/json' }, body: '{"full_name": "Ada", oops}' });
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('INVALID_JSON');
    expect(answer.text).not.toMatch(/position|Unexpected token|oops|SyntaxError/i);
  });

  it('answers garbage that is not HTTP with 400 without naming the parser error', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    const answer = await new Promise<string>((resolve) => {
      const socket = connect({ port: server!.port, host: '127.0.0.1' }, () => socket.write('HELLO THERE\r\n\r\n'));
      sockets.push(socket);
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.once('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).not.toMatch(/HPE_|Invalid method/);
    expect(answer.toLowerCase()).toContain('x-content-type-options: nosniff');
  });

  it('answers a request target that is no URL with 400 in words, and keeps serving', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    for (const target of ['//[', '//x:99999/api/customers', 'http://[/api/customers']) {
      const answer = await new Promise<string>((resolve) => {
        const socket = connect({ port: server!.port, host: '127.0.0.1' }, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server!.port}\r\nConnection: close\r\n\r\n`));
        sockets.push(socket);
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.once('close', () => resolve(text));
        socket.once('error', () => resolve(text));
      });
      expect(answer, target).toMatch(/^HTTP\/1\.1 4\d\d/);
      expect(answer).toContain('"code":');
    }
    expect((await call(server, 'GET', '/api/customers')).status).toBe(200);
  });

  it('sends X-Content-Type-Options: nosniff on every answer: data, errors, refusals, the docs page, the change feed', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    const answers = [
      await call(server, 'GET', '/api/customers'),
      await call(server, 'GET', '/api/nowhere'),
      await call(server, 'GET', '/api/docs'),
      await call(server, 'GET', '/api/openapi.json'),
      await call(server, 'GET', '/api/customers', { headers: { host: 'evil.example' } }),
      await call(server, 'POST', '/api/customers', { headers: { 'content-type': 'text/plain' }, body: 'x' }),
    ];
    for (const answer of answers) expect(answer.headers['x-content-type-options'], String(answer.status)).toBe('nosniff');
    const feed = await fetch(`${server.url}/changes`);
    expect(feed.headers.get('x-content-type-options')).toBe('nosniff');
    await feed.body?.cancel();
  });
});

describe('nosniff in every host', () => {
  it('is on the answers of api.fetch itself (the DB worker, any fetch-style server)', async () => {
    server = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger });
    for (const path of ['/api/customers', '/api/customers/999999', '/api/nowhere', '/elsewhere']) {
      const answer = await server.api.fetch(new Request(`http://localhost${path}`));
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});
