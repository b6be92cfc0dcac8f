import { validate, compileErrors } from '@readme/openapi-parser';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { customerSchema } from '../customer';
import { allRoutes, routes, type RouteDefinition } from '../routes';
import { createOpenApiDocument } from './create-openapi-document';

type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; content?: Record<string, { schema: unknown }>; 'x-otto-when-invalid'?: string }[];
  requestBody?: { content: Record<string, { schema: unknown }>; 'x-otto-when-invalid': string };
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
};

const operationOf = (doc: ReturnType<typeof createOpenApiDocument>, method: string, path: string) =>
  doc.paths[path]?.[method] as Operation;

describe('createOpenApiDocument', () => {
  const doc = createOpenApiDocument();

  it('is a valid OpenAPI 3.1 document for an independent validator', async () => {
    // A copy: the validator dereferences what it is given.
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
  });

  it('is checked by a validator that notices a broken document', async () => {
    const broken = structuredClone(doc) as unknown as Record<string, unknown>;
    (broken.paths as Record<string, Record<string, Operation>>)['/customers/{id}']!.get!.parameters = [];
    const result = await validate(broken as never);
    expect(result.valid).toBe(false);
  });

  it('takes X-Otto-Request-Id on every write and declares its 422 REQUEST_ID_REUSED, on no read', () => {
    for (const route of allRoutes) {
      const op = operationOf(doc, route.method.toLowerCase(), route.path.replace(/:(\w+)/g, '{$1}'));
      const write = route.method !== 'GET';
      expect(op.parameters?.some((p) => p.name === 'X-Otto-Request-Id' && p.in === 'header') ?? false, `${route.method} ${route.path}`).toBe(write);
      expect(op.responses['422']?.$ref, `${route.method} ${route.path}`).toBe(write ? '#/components/responses/RequestIdReused' : undefined);
    }
  });

  it('has one operation per route of the table, with a unique operationId', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, id: (op as Operation).operationId })),
    );
    expect(operations.map((o) => o.key).sort()).toEqual(allRoutes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`).sort());
    expect(new Set(operations.map((o) => o.id)).size).toBe(allRoutes.length);
    expect(operationOf(doc, 'get', '/jobs/counts').operationId).toBe('jobsCounts');
  });

  it('sends filterJson as a JSON-encoded query parameter with its schema, and says what an invalid one gets', () => {
    const [customerFilter] = operationOf(doc, 'get', '/customers').parameters ?? [];
    expect(customerFilter).toMatchObject({
      name: 'filterJson',
      in: 'query',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ListParams' } } },
      'x-otto-when-invalid': 'ignore',
    });
    expect(operationOf(doc, 'get', '/jobs').parameters?.[0]?.['x-otto-when-invalid']).toBe('error');
    expect(doc.components.schemas.ListParams).toMatchObject({
      type: 'object',
      properties: { queryText: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } },
    });
  });

  it("describes the spec's 200 with null for a customer body failing the shape check", () => {
    const create = operationOf(doc, 'post', '/customers');
    expect(create.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CustomerShape' } } },
      'x-otto-when-invalid': 'null',
    });
    expect(create.responses['200']?.content?.['application/json']?.schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Customer' }, { type: 'null' }],
    });
    expect(operationOf(doc, 'post', '/jobs').requestBody?.['x-otto-when-invalid']).toBe('error');
  });

  it("describes the spec's plain-text 404 for requests that match no operation", () => {
    expect(doc['x-otto-unknown-route']).toEqual(expect.objectContaining({ status: 404, response: { $ref: '#/components/responses/NotFoundText' } }));
    expect(doc.components.responses.NotFoundText).toMatchObject({
      content: { 'text/plain': { schema: { type: 'string', const: 'Not found' } } },
    });
  });

  it('gives each call the JSON errors its kind can meet, and X-Total-Count on lists', () => {
    const statuses = (method: string, path: string) => Object.keys(operationOf(doc, method, path).responses);
    expect(statuses('get', '/customers')).toEqual(['200', '400', '401', '403', '421', '500', '503', '504']);
    expect(statuses('get', '/customers/{id}')).toEqual(['200', '401', '403', '404', '421', '500', '503', '504']);
    expect(statuses('put', '/customers/{id}')).toEqual(['200', '400', '401', '403', '404', '412', '413', '415', '421', '422', '500', '503', '504', '507']);
    expect(statuses('post', '/customers')).not.toContain('412');
    expect(statuses('patch', '/jobs/{id}')).toContain('409');
    expect(statuses('post', '/jobs')).not.toContain('409');
    expect(operationOf(doc, 'get', '/jobs').responses['200']?.headers).toEqual({ 'X-Total-Count': { $ref: '#/components/headers/TotalCount' } });
    expect(operationOf(doc, 'get', '/jobs/counts').responses['200']?.headers).toBeUndefined();
    expect(doc.components.responses.StorageFull).toMatchObject({
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/ApiError' }, { properties: { code: { enum: ['STORAGE_FULL'] } } }] },
        },
      },
    });
  });

  it('names the entities once in components, with their rules', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Customer', 'CustomerShape', 'CustomerInput', 'Job', 'JobInput', 'JobPatch', 'JobStatus', 'ApiError']),
    );
    expect(doc.components.schemas.Job).toMatchObject({ properties: { status: { $ref: '#/components/schemas/JobStatus' } } });
    expect(doc.components.schemas.JobInput).toMatchObject({
      required: ['customer_id', 'title'],
      properties: { title: { minLength: 1, maxLength: 120 }, status: { default: 'quote' } },
    });
  });

  it('documents a route added to the route table without anyone editing the document', async () => {
    const estimateSchema = z.object({ id: z.string(), total_cents: z.number().int() });
    const estimates = {
      list: {
        method: 'GET',
        path: '/estimates',
        summary: 'List estimates.',
        filterJson: z.object({ customerId: z.string().optional() }),
        response: z.array(estimateSchema),
        totalCount: true,
      },
      send: {
        method: 'POST',
        path: '/estimates/:id/send',
        summary: 'Send an estimate to its customer.',
        params: z.object({ id: z.string() }),
        body: z.object({ email: z.string() }),
        response: customerSchema,
      },
    } as const satisfies Record<string, RouteDefinition>;
    const extended = createOpenApiDocument({ routes: { ...routes, estimates } });

    expect(Object.keys(extended.paths)).toEqual([...Object.keys(doc.paths), '/estimates', '/estimates/{id}/send']);
    expect(extended.tags.map((t) => t.name)).toEqual([...Object.keys(routes), 'estimates']);
    expect(operationOf(extended, 'get', '/estimates')).toMatchObject({
      operationId: 'estimatesList',
      responses: { 200: { headers: { 'X-Total-Count': {} }, content: { 'application/json': { schema: { type: 'array' } } } } },
    });
    expect(operationOf(extended, 'post', '/estimates/{id}/send')).toMatchObject({
      operationId: 'estimatesSend',
      parameters: [{ name: 'id', in: 'path', required: true }, { name: 'X-Otto-Request-Id', in: 'header', required: false }],
      requestBody: { content: { 'application/json': { schema: { properties: { email: { type: 'string' } } } } } },
      responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Customer' } } } }, 507: {} },
    });
    const result = await validate(structuredClone(extended) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('refuses a table that names one call twice', () => {
    const twice = { a: { list: routes.customers.list }, b: { again: routes.customers.list } };
    expect(() => createOpenApiDocument({ routes: twice })).toThrow('Two routes answer GET /customers');
  });
});
