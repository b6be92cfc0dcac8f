import { apiErrorSchema, buildPath, totalCountHeader, type RouteDefinition } from '@otto/api-contract';
import type { z } from 'zod';

/** The kinds of failure the client reports (spec section 8). */
export type ApiErrorKind = 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR' | 'HTTP_ERROR';

/**
 * A failed API call: FETCH_ERROR (no answer), TIMEOUT_ERROR, PARSING_ERROR (an answer that is not
 * what the contract promises), or HTTP_ERROR with the status and its data.
 */
export class ApiClientError extends Error {
  override readonly name = 'ApiClientError';

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The field issues of a 400 answer, keyed by field name. */
  fieldIssues(): Record<string, string> {
    const parsed = apiErrorSchema.safeParse(this.data);
    const issues: Record<string, string> = {};
    for (const issue of parsed.success ? (parsed.data.issues ?? []) : []) issues[issue.path] ??= issue.message;
    return issues;
  }
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

const settings: { fetch: Fetch; baseUrl: string; timeoutMs: number } = {
  fetch: (input, init) => globalThis.fetch(input, init),
  baseUrl: '',
  timeoutMs: 15_000,
};

/** Points the client at another fetch or base URL (tests, or a remote backend). */
export function configureApiClient(options: Partial<typeof settings>): void {
  Object.assign(settings, options);
}

export interface ApiRequest {
  params?: Record<string, string>;
  filter?: unknown;
  body?: unknown;
  signal?: AbortSignal;
}

export interface ApiResult<T> {
  data: T;
  totalCount?: number;
}

/**
 * Calls one route of the contract and checks the answer against its response schema.
 * @example
 * const { data, totalCount } = await callApi(customerRoutes.list, { filter: { queryText: 'smi' } });
 */
export async function callApi<R extends RouteDefinition>(
  route: R,
  request: ApiRequest = {},
): Promise<ApiResult<z.infer<R['response']>>> {
  let url = settings.baseUrl + buildPath(route.path, request.params);
  if (request.filter !== undefined) url += `?filterJson=${encodeURIComponent(JSON.stringify(request.filter))}`;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;

  let response: Response;
  try {
    response = await settings.fetch(url, {
      method: route.method,
      signal,
      ...(request.body !== undefined
        ? { body: JSON.stringify(request.body), headers: { 'content-type': 'application/json' } }
        : {}),
    });
  } catch (error) {
    if (timeout.aborted) {
      throw new ApiClientError('TIMEOUT_ERROR', 'Otto took too long to answer. Try again in a moment.');
    }
    if (request.signal?.aborted) throw error;
    throw new ApiClientError('FETCH_ERROR', 'Otto could not reach its database. Reload the page to try again.');
  }

  const text = await response.text().catch(() => '');
  let data: unknown = text;
  try {
    data = text === '' ? undefined : JSON.parse(text);
  } catch {
    if (response.ok) throw new ApiClientError('PARSING_ERROR', 'Otto answered with something that is not JSON.');
  }
  if (!response.ok) {
    const body = apiErrorSchema.safeParse(data);
    const message = body.success ? body.data.message : `The request failed with status ${response.status}.`;
    throw new ApiClientError('HTTP_ERROR', message, response.status, data);
  }
  const parsed = route.response.safeParse(data);
  if (!parsed.success) {
    throw new ApiClientError('PARSING_ERROR', 'Otto answered with data in an unexpected shape.');
  }
  const total = response.headers.get(totalCountHeader);
  return { data: parsed.data as z.infer<R['response']>, ...(total !== null ? { totalCount: Number(total) } : {}) };
}
