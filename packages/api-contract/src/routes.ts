// The route table (every call an Otto backend answers) and how a request finds its route.
import { customerRoutes } from './customer-routes';
import { importRoutes } from './import-routes';
import { invoiceRoutes, settingsRoutes } from './invoice-routes';
import { jobRoutes } from './job-routes';
import { apiBasePath, limits } from './limits';
import { reportRoutes } from './report-routes';
import { syncRoutes } from './sync-routes';
import type { RouteDefinition } from './route-definition';

export type { HttpMethod, RouteDefinition } from './route-definition';
export { customerRoutes, importRoutes, invoiceRoutes, jobRoutes, reportRoutes, settingsRoutes, syncRoutes };

/**
 * The route table: every call an Otto backend answers.
 * @example
 * routes.customers.list.path; // '/customers'
 * routes.jobs.counts.method; // 'GET'
 * routes.reports.summary.path; // '/reports/summary'
 */
export const routes = {
  customers: customerRoutes,
  jobs: jobRoutes,
  imports: importRoutes,
  reports: reportRoutes,
  invoices: invoiceRoutes,
  settings: settingsRoutes,
  sync: syncRoutes,
} as const;

/**
 * Every route as a flat list, in the order a router should try them.
 * @example
 * const paths = allRoutes.map((r) => `${r.method} ${r.path}`); // ['GET /customers', …]
 */
export const allRoutes: readonly RouteDefinition[] = Object.values(routes).flatMap((group) =>
  Object.values(group),
);

/**
 * The largest body any call takes, in bytes: what a server may read before it knows the route.
 * @example
 * if (declaredLength > largestBodyBytes) refuse413();
 */
export const largestBodyBytes = Math.max(limits.maxBodyBytes, ...allRoutes.map((r) => r.maxBodyBytes ?? 0));

/**
 * The largest body a call takes, in bytes: its own limit, else `limits.maxBodyBytes`.
 * @example
 * bodyLimitOf('POST', '/customers/import'); // 16777216
 */
export function bodyLimitOf(method: string, path: string): number {
  const match = matchRoute(method, path);
  return (match.kind === 'match' ? match.route.maxBodyBytes : undefined) ?? limits.maxBodyBytes;
}

/**
 * True when the call (method and URL or path below the API base) may run long (`longRunning`).
 * @example
 * isLongRunning('POST', '/api/customers/import'); // true
 */
export function isLongRunning(method: string, urlOrPath: string): boolean {
  let path = urlOrPath;
  if (URL.canParse(urlOrPath)) path = new URL(urlOrPath).pathname;
  if (path.startsWith(`${apiBasePath}/`)) path = path.slice(apiBasePath.length);
  const match = matchRoute(method, path);
  return match.kind === 'match' && match.route.longRunning === true;
}

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

/**
 * The result of matching a request path against the route table: a route with its path
 * parameters, a known path with an unknown method, or no route at all.
 * @example
 * const m: RouteMatch = matchRoute('DELETE', '/customers/7'); // { kind: 'method-not-allowed' }
 */
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
