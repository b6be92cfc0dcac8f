import { createOpenApiDocument, routes, type OpenApiDocument, type RouteDefinition } from '@otto/api-contract';
import { conformanceRules, formatReport, runConformance } from '@otto/api-contract/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMockServer, withApiDocs, type MockServer } from '../src/node';
import { capturingLogger } from './helpers';
import { createOpenApiCheck } from './openapi-check';

let server: MockServer;
let document: OpenApiDocument;

beforeAll(async () => {
  server = await createMockServer({ port: 0, seed: { count: 40, fakerSeed: 5 }, logger: capturingLogger().logger });
  document = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiDocument;
});
afterAll(() => server.close());

describe('otto-mock-server describes itself', () => {
  it('serves the OpenAPI document generated from the route table at /api/openapi.json', async () => {
    const res = await fetch(`${server.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(document).toEqual(createOpenApiDocument());
  });

  it('serves a reference page at /api/docs that runs no script and loads nothing from elsewhere', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).not.toMatch(/<script|https?:\/\//);
    expect(html).toContain('<a href="/api/openapi.json">');
  });

  it('lists on the reference page a route added to the route table', async () => {
    const invoices = {
      list: { method: 'GET', path: '/invoices', summary: 'List invoices.', response: z.array(z.object({ id: z.string() })) },
    } as const satisfies Record<string, RouteDefinition>;
    const withDocs = withApiDocs(() => Promise.resolve(new Response('Not found', { status: 404 })), {
      document: createOpenApiDocument({ routes: { ...routes, invoices } }),
    });
    const html = await (await withDocs(new Request('http://localhost/api/docs'))).text();
    expect(html).toContain('<section class="op" id="op-invoicesList" data-operation="GET /invoices">');
    expect(html).toContain('List invoices.');
  });

  it('answers other methods on those paths, and the same paths in the in-process API, with the spec\'s Not found', async () => {
    const post = await fetch(`${server.url}/openapi.json`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect([post.status, await post.text()]).toEqual([404, 'Not found']);
    const inProcess = await server.api.fetch(new Request('http://localhost/api/docs'));
    expect([inProcess.status, await inProcess.text()]).toEqual([404, 'Not found']);
  });
});

describe('the conformance kit over HTTP, checked by Ajv against the OpenAPI document', () => {
  it('sends and receives only what the document describes, on every operation', async () => {
    const check = createOpenApiCheck(document);
    const report = await runConformance({ fetch: check.wrap(fetch), baseUrl: server.url });
    expect(report.failed, formatReport(report)).toBe(0);
    expect(report.passed).toBe(conformanceRules.length);
    expect(check.problems).toEqual([]);
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect([...check.seen.keys()].sort()).toEqual([...operations, 'unknown route'].sort());
    // The kit breaks the document on purpose too; the document says what each such request gets.
    expect(check.invalidRequests).toContainEqual(expect.stringMatching(/^GET \/api\/customers → 200: filterJson .* \[ignore\]$/));
    expect(check.invalidRequests).toContainEqual(expect.stringMatching(/^POST \/api\/customers → 200 \(null\): request body .* \[null\]$/));
    expect(check.invalidRequests).toContainEqual(expect.stringMatching(/^POST \/api\/jobs → 400: request body\/title must NOT have more than 120 characters \[error\]$/));
    expect(check.invalidRequests).toContainEqual(expect.stringMatching(/^POST \/api\/customers → 400: the body is not JSON$/));
    // The whole kit over HTTP: seconds on a loaded machine, so a generous limit.
  }, 60_000);
});

describe('the check catches a backend that breaks the document', () => {
  /** The real server, with one answer changed. */
  const breaking = (change: (request: Request, answer: Response) => Promise<Response | undefined>) => async (request: Request) => {
    const answer = await fetch(request);
    return (await change(request, answer.clone())) ?? answer;
  };
  const run = async (change: Parameters<typeof breaking>[0], only: string[]) => {
    const check = createOpenApiCheck(document);
    await runConformance({ fetch: check.wrap(breaking(change)), baseUrl: server.url, only });
    return check.problems;
  };
  const isGetCustomer = (request: Request) => request.method === 'GET' && /^\/api\/customers\/\d+$/.test(new URL(request.url).pathname);

  it('a customer without its email', async () => {
    const problems = await run(async (request, answer) => {
      if (!isGetCustomer(request) || answer.status !== 200) return undefined;
      const { email: _email, ...customer } = (await answer.json()) as Record<string, unknown>;
      return Response.json(customer, { headers: answer.headers });
    }, ['customers.get']);
    expect(problems).toEqual([expect.stringMatching(/^GET \/api\/customers\/\d+ → 200: body must have required property 'email'$/)]);
  });

  it('a status the document does not give', async () => {
    const problems = await run(async (request, answer) => {
      if (request.method !== 'POST' || new URL(request.url).pathname !== '/api/jobs' || answer.status !== 200) return undefined;
      return new Response(answer.body, { status: 201, headers: answer.headers });
    }, ['jobs.create']);
    expect(problems).toEqual(['POST /api/jobs → 201: the document gives no such status']);
  });

  it('a list without X-Total-Count, and an error with a code its status does not carry', async () => {
    const problems = await run(async (request, answer) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/api/customers' && request.method === 'GET') {
        const headers = new Headers(answer.headers);
        headers.delete('x-total-count');
        return new Response(answer.body, { status: answer.status, headers });
      }
      if (isGetCustomer(request) && answer.status === 404) return Response.json({ code: 'CONFLICT', message: 'No.' }, { status: 404 });
      return undefined;
    }, ['customers.list.total-count', 'customers.get']);
    expect(problems).toContainEqual(expect.stringMatching(/^GET \/api\/customers → 200: the X-Total-Count header is missing$/));
    expect(problems).toContainEqual(expect.stringMatching(/^GET \/api\/customers\/\d+ → 404: body\/code must be equal to one of the allowed values/));
  });

  it("an unknown route answered with JSON instead of the spec's text", async () => {
    const problems = await run(async (request, answer) => {
      if (answer.status !== 404 || (await answer.clone().text()) !== 'Not found') return undefined;
      return Response.json({ code: 'NOT_FOUND', message: 'Not found' }, { status: 404 });
    }, ['errors.unknown-resource']);
    expect(problems).toEqual(['GET /api → 404: the body is "application/json", not text/plain']);
  });

  it('a job body breaking its schema answered with 200 null, as if it were a customer', async () => {
    const check = createOpenApiCheck(document);
    await check.wrap(async () => Response.json(null))(
      new Request(`${server.url}/jobs`, { method: 'POST', body: '{"title": 1}', headers: { 'content-type': 'application/json' } }),
    );
    expect(check.problems).toEqual([
      'POST /api/jobs → 200: body must be object',
      "POST /api/jobs → 200: the request breaks the document (request body must have required property 'customer_id', request body/title must be string) but got neither a documented 4xx nor the answer the document gives it",
    ]);
  });
});

describe("the HTTP server's refusals, checked by Ajv against the OpenAPI document", () => {
  it('gives 401, 403, 415 and 421 only as the document describes them', async () => {
    const guarded = await createMockServer({ port: 0, seed: false, logger: capturingLogger().logger, token: 'a-token-for-ajv' });
    try {
      const check = createOpenApiCheck(document);
      const send = check.wrap(sendOverNodeHttp);
      const auth = { authorization: 'Bearer a-token-for-ajv' };
      const body = JSON.stringify({ full_name: 'Ann Ajv', email: 'ann@example.com', phone: '1' });
      const statuses = [
        (await send(new Request(`${guarded.url}/customers`))).status,
        (await send(new Request(`${guarded.url}/customers`, { headers: { ...auth, origin: 'https://evil.example' } }))).status,
        (await send(new Request(`${guarded.url}/customers`, { method: 'POST', body, headers: { ...auth, 'content-type': 'text/plain' } }))).status,
        (await send(new Request(`${guarded.url}/customers/1`, { headers: { ...auth, 'x-test-host': 'evil.example' } }))).status,
      ];
      expect(statuses).toEqual([401, 403, 415, 421]);
      expect(check.problems).toEqual([]);
    } finally {
      await guarded.close();
    }
  });
});

/** fetch over node:http, so that a test can send any Host (`x-test-host`), which fetch would not. */
async function sendOverNodeHttp(request: Request): Promise<Response> {
  const { request: httpRequest } = await import('node:http');
  const url = new URL(request.url);
  const headers = Object.fromEntries(request.headers);
  const host = headers['x-test-host'] ?? url.host;
  delete headers['x-test-host'];
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method: request.method, path: url.pathname + url.search, headers: { ...headers, host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') out.set(name, value);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: out }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
