import type { RouteDefinition } from '../routes';

/**
 * A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain data.
 * @example
 * const idSchema: JsonSchema = { type: 'string' };
 */
export type JsonSchema = Record<string, unknown>;

/**
 * A route table: groups of named routes. Each group becomes a tag of the OpenAPI document and each
 * route an operation whose id is the group and the route name (`customersList`).
 * @example
 * const table: RouteTable = { customers: customerRoutes, jobs: jobRoutes };
 */
export type RouteTable = Readonly<Record<string, Readonly<Record<string, RouteDefinition>>>>;

/**
 * An OpenAPI 3.1 document as plain JSON data; `JSON.stringify` it to serve or save it.
 * @example
 * const doc: OpenApiDocument = createOpenApiDocument();
 * console.log(Object.keys(doc.paths)); // ['/customers', '/customers/{id}', '/jobs', …]
 */
export interface OpenApiDocument {
  openapi: '3.1.1';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  /** The API base: `/api`, relative to wherever the document is served from. */
  servers: { url: string; description: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
  /** Any call may carry the bearer token; a server that wants one answers 401 without it. */
  security: Record<string, string[]>[];
  /**
   * What a request that matches no operation gets (a path outside the base, an unknown resource, a
   * method a path does not take): the spec's plain-text 404.
   */
  'x-otto-unknown-route': { status: 404; description: string; response: { $ref: string } };
  [extension: `x-${string}`]: unknown;
}
