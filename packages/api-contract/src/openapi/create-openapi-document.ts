import type { z } from 'zod';
// A named import: bundlers keep only the version, not the whole manifest.
import { version as contractVersion } from '../../package.json';
import { apiBasePath, limits, totalCountHeader } from '../limits';
import { requestIdPolicy } from '../request-id';
import { routes as contractRoutes, type RouteDefinition } from '../routes';
import { errorResponses, errorStatusesOf, notFoundTextResponse } from './error-responses';
import type { JsonSchema, OpenApiDocument, RouteTable } from './openapi-types';
import { componentSchemas, createSchemaRegistry, routeSchema, type SchemaRegistry } from './schema-components';

/**
 * Options of `createOpenApiDocument`.
 * @example
 * const options: OpenApiOptions = { routes: { ...routes, invoices: invoiceRoutes } };
 */
export interface OpenApiOptions {
  /**
   * The route table to describe.
   * @default the contract's `routes`
   */
  routes?: RouteTable;
  /**
   * The document's `info.version`.
   * @default the version of @otto/api-contract
   */
  version?: string;
}

const groupDescriptions: Record<string, string> = {
  customers: "The spec's customer calls (section 7), PATCH included.",
  jobs: 'Jobs for customers, from a quote to paid (decision 0003). Bad input is always a 400 with the field issues, never null.',
  imports: 'The last CSV import (POST /customers/import, /jobs/import) and its undo (decision 0060).',
  reports: 'Figures over the whole business, computed in SQL, with months and days in the time zone the client names (decision 0080).',
};

const overview = `The Otto back-office API: customers and jobs of a small business.

Generated from the route table and the zod schemas of \`@otto/api-contract\`; never edit it by hand.

- Every call lives below \`${apiBasePath}\`. Ids are strings, times epoch milliseconds, money whole cents.
- List calls take their filter as JSON in the \`filterJson\` query parameter and report the number of
  matching rows in the \`${totalCountHeader}\` header; the body is the array of rows.
- Errors a client can cause are 4xx with a JSON body \`{ code, message, issues?, allowed? }\`
  (\`ApiError\`); a message is a sentence a person can read.
- The spec's own rules are kept exactly: a customer body failing the shape check is answered **200
  with \`null\`**; an invalid customer \`filterJson\` is ignored; a request that matches no
  operation (a path outside \`${apiBasePath}/\`, an unknown resource, a method a path does not take)
  gets **404 with the text \`Not found\`** (\`x-otto-unknown-route\`).
- Bodies are JSON, at most ${limits.maxBodyBytes} bytes.

\`otto-mock-server\` serves this document at \`${apiBasePath}/openapi.json\` and a reference at
\`${apiBasePath}/docs\`; neither is part of the API a backend must answer.`;

/**
 * Generates the OpenAPI 3.1 document of a route table from its zod schemas: every route with its
 * path and query parameters (`filterJson` as a JSON-encoded parameter), body, answer, the JSON
 * errors its kind of call can give, and the spec's exceptions (200 with `null`, 404 `Not found`
 * as text). Adding a route to the table adds it to the document.
 * @example
 * import { createOpenApiDocument } from '@otto/api-contract';
 * const doc = createOpenApiDocument();
 * await writeFile('openapi.json', JSON.stringify(doc, null, 2));
 */
export function createOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const table: RouteTable = options.routes ?? contractRoutes;
  const registry = createSchemaRegistry();
  const schemas = componentSchemas(registry);
  const names = new Set(Object.keys(schemas));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [group, groupRoutes] of Object.entries(table)) {
    for (const [name, route] of Object.entries(groupRoutes)) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const item = (paths[path] ??= {});
      const method = route.method.toLowerCase();
      if (item[method]) throw new Error(`Two routes answer ${route.method} ${route.path}; the route table must name each call once.`);
      item[method] = operation(group, name, route, registry, names);
    }
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Otto API',
      version: options.version ?? contractVersion,
      description: overview,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: apiBasePath, description: 'The API base, on the host that serves this document.' }],
    tags: Object.keys(table).map((name) => ({ name, ...(groupDescriptions[name] ? { description: groupDescriptions[name] } : {}) })),
    paths,
    components: {
      schemas,
      responses: { ...errorResponses(), NotFoundText: notFoundTextResponse },
      headers: {
        TotalCount: {
          description: 'How many rows match the filter in all, whatever the page (limit and offset).',
          required: true,
          schema: { type: 'integer', minimum: 0 },
        },
        ETag: {
          description:
            'The version of the record: its modified_dt in double quotes. The backend makes it in the database, greater with every write of the record (never from a clock alone, so two writes in one millisecond or through servers whose clocks differ still get different versions). Send it back in If-Match to update only that version.',
          required: true,
          schema: { type: 'string', pattern: '^"\\d+"$' },
        },
      },
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'otto-mock-server wants a token when it listens beyond loopback or was started with --token (401 UNAUTHORIZED without it). The in-browser backend wants none. The change feed (/api/changes, for EventSource) also takes it as a `token` query parameter.',
        },
      },
    },
    // Optional: `{}` is "no token", for the in-browser backend and a server on loopback.
    security: [{}, { bearerToken: [] }],
    'x-otto-unknown-route': {
      status: 404,
      description:
        "Any request that matches no operation, including paths outside the API base. (A server may add pages of its own, such as otto-mock-server's /api/openapi.json and /api/docs.)",
      response: { $ref: '#/components/responses/NotFoundText' },
    },
  };
}

function operation(group: string, name: string, route: RouteDefinition, registry: SchemaRegistry, names: ReadonlySet<string>) {
  const schema = (s: z.ZodType): JsonSchema => routeSchema(s, registry, names);
  const parameters: unknown[] = [];
  if (route.params) {
    const { properties = {} } = schema(route.params) as { properties?: Record<string, JsonSchema> };
    for (const [param, paramSchema] of Object.entries(properties)) {
      parameters.push({
        name: param,
        in: 'path',
        required: true,
        description: 'The id, as the API gave it. One that is not a positive whole number finds nothing (404).',
        schema: paramSchema,
      });
    }
  }
  if (route.etag && route.method !== 'GET') {
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'The ETag of the version this change was made on: the update is saved only over that version, else 412 PRECONDITION_FAILED and nothing changes. Without it the update is saved as the spec says.',
      schema: { type: 'string' },
    });
  }
  if (route.method !== 'GET') {
    parameters.push({
      name: 'X-Otto-Request-Id',
      in: 'header',
      required: false,
      description: `An id for this write (an idempotency key): letters, digits and _ . : - up to 100 characters (another value is ignored). Sent again with the same request (method, path with query, body bytes) within ${requestIdPolicy.maxAgeMs / 3_600_000} hours, the write is not run again: its first answer comes back. The same id with another request is refused, 422 REQUEST_ID_REUSED, and nothing runs. Up to ${requestIdPolicy.maxAnswers} answers are kept; beyond that the oldest go first.`,
      schema: { type: 'string', maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$' },
    });
  }
  if (route.filterJson) {
    const ignored = route.invalidFilter !== 'error';
    parameters.push({
      name: 'filterJson',
      in: 'query',
      required: false,
      description: ignored
        ? `The filter as JSON (URL-encoded). One that is not JSON or fails this schema is ignored, as if absent, and 'Invalid filterJson param' is logged (spec section 5); one that passes it with a value out of range (limit 1–${limits.maxPageSize}, offset a whole number from 0, queryText up to ${limits.maxQueryTextLength} characters) is a 400.`
        : 'The filter as JSON (URL-encoded). One that is not JSON, fails this schema, or has a value out of range is a 400 INVALID_PARAMS: dropping it would widen the answer.',
      content: { 'application/json': { schema: schema(route.filterJson) } },
      'x-otto-when-invalid': ignored ? 'ignore' : 'error',
    });
  }
  const nullOnInvalid = route.invalidBody === 'null';
  return {
    operationId: `${group}${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    tags: [group],
    summary: route.summary,
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            description: nullOnInvalid
              ? "JSON. A body that is JSON but fails this shape check is answered 200 with null (spec section 5); one that passes it but breaks a field rule (CustomerInput) is a 400 with the issues. Only full_name, email and phone are taken."
              : 'JSON. A body that fails this schema or its rules is a 400 VALIDATION_FAILED with an issue per field.',
            content: { 'application/json': { schema: schema(route.body) } },
            'x-otto-when-invalid': nullOnInvalid ? 'null' : 'error',
          },
        }
      : {}),
    responses: {
      200: {
        description: nullOnInvalid ? 'The answer, or null when the body failed the shape check.' : 'The answer.',
        ...(route.totalCount ? { headers: { [totalCountHeader]: { $ref: '#/components/headers/TotalCount' } } } : {}),
        ...(route.etag
          ? {
              headers: {
                // A spec `null` answer (a failed shape check) names no record, so it has no ETag.
                ETag: nullOnInvalid ? { description: 'The version of the record; absent when the answer is null.', required: false, schema: { type: 'string' } } : { $ref: '#/components/headers/ETag' },
              },
            }
          : {}),
        content: { 'application/json': { schema: schema(route.response) } },
      },
      ...Object.fromEntries(errorStatusesOf(route).map(({ status, ref, description }) => [status, { $ref: ref, ...(description ? { description } : {}) }])),
    },
  };
}
