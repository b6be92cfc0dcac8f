import { z } from 'zod';
import { customerSchema, customerShapeSchema } from './customer';
import { listParamsShapeSchema } from './list-params';
import { apiBasePath } from './limits';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call of the API: what it accepts and what it answers with on success. */
export interface RouteDefinition {
  method: HttpMethod;
  /** Path below the API base, with `:name` for path parameters. */
  path: string;
  summary: string;
  params?: z.ZodType;
  /** Query parameters; `filterJson` holds JSON that must pass this schema. */
  filterJson?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** List calls report the total number of matching rows in the X-Total-Count header. */
  totalCount?: boolean;
}

const idParams = z.object({ id: z.string() });

/**
 * Every customer call of the spec (section 7), PATCH included.
 * @example
 * const { method, path } = customerRoutes.update; // 'PUT', '/customers/:id'
 */
export const customerRoutes = {
  list: {
    method: 'GET',
    path: '/customers',
    summary: 'List customers: full-text search when queryText is non-empty, else newest modified first.',
    filterJson: listParamsShapeSchema,
    response: z.array(customerSchema),
    totalCount: true,
  },
  get: {
    method: 'GET',
    path: '/customers/:id',
    summary: 'One customer by id.',
    params: idParams,
    response: customerSchema,
  },
  create: {
    method: 'POST',
    path: '/customers',
    summary: 'Create a customer; null when the body fails the shape check.',
    body: customerShapeSchema,
    response: customerSchema.nullable(),
  },
  update: {
    method: 'PUT',
    path: '/customers/:id',
    summary: 'Update full_name, email and phone; null when the body fails the shape check.',
    params: idParams,
    body: customerShapeSchema,
    response: customerSchema.nullable(),
  },
  patch: {
    method: 'PATCH',
    path: '/customers/:id',
    summary: 'Same as PUT.',
    params: idParams,
    body: customerShapeSchema,
    response: customerSchema.nullable(),
  },
} as const satisfies Record<string, RouteDefinition>;

/**
 * The route table: every call an Otto backend answers.
 * @example
 * for (const route of allRoutes) console.log(route.method, route.path);
 */
export const routes = { customers: customerRoutes } as const;

/** Every route as a flat list, in the order a router should try them. */
export const allRoutes: readonly RouteDefinition[] = Object.values(routes).flatMap((group) =>
  Object.values(group),
);

/**
 * Fills a route path's `:name` parameters and prefixes the API base path.
 * @example
 * buildPath('/customers/:id', { id: '42' }); // '/api/customers/42'
 */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  const filled = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}.`);
    return encodeURIComponent(value);
  });
  return `${apiBasePath}${filled}`;
}

/** The result of matching a request path against the route table. */
export type RouteMatch =
  | { kind: 'match'; route: RouteDefinition; params: Record<string, string> }
  | { kind: 'method-not-allowed' }
  | { kind: 'no-route' };

/**
 * Finds the route for a method and a path below the API base (`/customers/7`).
 * @example
 * const m = matchRoute('GET', '/customers/7'); // { kind: 'match', params: { id: '7' }, … }
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const segments = path.split('/').filter(Boolean);
  let pathMatched = false;
  for (const route of allRoutes) {
    const params = matchSegments(route.path.split('/').filter(Boolean), segments);
    if (!params) continue;
    if (route.method === method.toUpperCase()) return { kind: 'match', route, params };
    pathMatched = true;
  }
  return pathMatched ? { kind: 'method-not-allowed' } : { kind: 'no-route' };
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] as string;
    const got = actual[i] as string;
    if (want.startsWith(':')) {
      try {
        params[want.slice(1)] = decodeURIComponent(got);
      } catch {
        return null;
      }
    } else if (want !== got) {
      return null;
    }
  }
  return params;
}
