import { apiErrorSchema, buildPath, limits, totalCountHeader, type RouteDefinition } from '@otto/api-contract';
import { appVersionHeader, dataStampHeader } from '@otto/mock-backend/browser';
import { ApiClientError } from './api-client-error';
import { accessRefusal } from './access-refusal';

export { ApiClientError, type ApiErrorKind } from './api-client-error';
import type { z } from 'zod';

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

const settings: { fetch: Fetch; baseUrl: string; timeoutMs: number; tokenGiven: boolean } = {
  fetch: (input, init) => globalThis.fetch(input, init),
  baseUrl: '',
  timeoutMs: 15_000,
  /** With a remote server (`baseUrl`): whether the build sends a token (VITE_OTTO_API_TOKEN). */
  tokenGiven: false,
};

/** Points the client at another fetch or base URL (tests, or a remote backend). */
export function configureApiClient(options: Partial<typeof settings>): void {
  Object.assign(settings, options);
}

/** What every call waits for before it reads the settings: undefined, or why no call can be made. */
let held: Promise<string | undefined> | undefined;

/**
 * Holds every call until `until` settles: the app renders its first screen from the kept answer
 * before the backend has started (start-app.tsx), and what it asks meanwhile goes out once the
 * backend has configured the client. When `until` gives a reason (the start failed), every call
 * fails with it from then on, rather than going out to a backend that was never set up.
 * @example
 * holdApiCalls(startOnce().then((started) => (started.ok ? undefined : started.message)));
 */
export function holdApiCalls(until: Promise<string | undefined>): void {
  const hold: Promise<string | undefined> = until.then((refusal) => {
    if (held === hold && refusal === undefined) held = undefined;
    return refusal;
  });
  held = hold;
}

export interface ApiRequest {
  params?: Record<string, string>;
  filter?: unknown;
  body?: unknown;
  /** A body already serialized as JSON (a large import built in a worker); sent as it is. */
  rawBody?: string | Blob;
  signal?: AbortSignal;
  /** How long to wait for the answer, when not the client's default. */
  timeoutMs?: number;
  /** Extra request headers (`If-Match`). */
  headers?: Record<string, string>;
}

export interface ApiResult<T> {
  data: T;
  totalCount?: number;
  /** The in-browser database's data stamp the answer was read under (decision 0009), when it gave one. */
  stamp?: string;
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
  const refusal = held && (await held);
  if (refusal) throw new ApiClientError('FETCH_ERROR', refusal);
  let url = settings.baseUrl + buildPath(route.path, request.params);
  if (request.filter !== undefined) url += `?filterJson=${encodeURIComponent(JSON.stringify(request.filter))}`;
  // A long call (an import, its undo) waits past the host's own limit for it, so that the host's
  // answer in words comes first.
  const timeout = AbortSignal.timeout(request.timeoutMs ?? (route.longRunning ? limits.longRequestTimeoutMs + 2_000 : settings.timeoutMs));
  const body = request.rawBody ?? (request.body !== undefined ? JSON.stringify(request.body) : undefined);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;

  let response: Response;
  try {
    response = await settings.fetch(url, {
      method: route.method,
      signal,
      headers: {
        // The in-browser database refuses writes from a build older than its owner's (409 APP_OUTDATED).
        ...(settings.baseUrl === '' ? { [appVersionHeader]: __OTTO_BUILD_ID__ } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      ...(body !== undefined ? { body } : {}),
    });
  } catch (error) {
    if (timeout.aborted) {
      throw new ApiClientError('TIMEOUT_ERROR', 'Otto took too long to answer. Try again in a moment.');
    }
    if (request.signal?.aborted) throw error;
    throw new ApiClientError(
      'FETCH_ERROR',
      settings.baseUrl === ''
        ? 'Otto could not reach its database. Reload the page to try again.'
        : `Otto could not reach its server (${new URL(settings.baseUrl).host}). It tries again by itself; nothing you typed is lost.`,
    );
  }

  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (timeout.aborted) throw new ApiClientError('TIMEOUT_ERROR', 'Otto took too long to answer. Try again in a moment.');
    if (request.signal?.aborted) throw error;
    throw new ApiClientError('FETCH_ERROR', 'The answer from Otto was cut off. Try again.');
  }
  let data: unknown = text;
  try {
    data = text === '' ? undefined : JSON.parse(text);
  } catch {
    if (response.ok) throw new ApiClientError('PARSING_ERROR', 'Otto answered with something that is not JSON.');
  }
  if (!response.ok) {
    const body = apiErrorSchema.safeParse(data);
    // A server that refuses the call itself (401, 403) is told in words naming the setting to check.
    const refused =
      settings.baseUrl === ''
        ? undefined
        : accessRefusal({ status: response.status, serverUrl: settings.baseUrl, tokenGiven: settings.tokenGiven, body: body.success ? body.data : undefined });
    const message = refused ?? (body.success ? body.data.message : `The request failed with status ${response.status}.`);
    throw new ApiClientError('HTTP_ERROR', message, response.status, data);
  }
  const parsed = route.response.safeParse(data);
  if (!parsed.success) {
    throw new ApiClientError('PARSING_ERROR', 'Otto answered with data in an unexpected shape.');
  }
  const total = response.headers.get(totalCountHeader);
  const stamp = response.headers.get(dataStampHeader);
  return {
    data: parsed.data as z.infer<R['response']>,
    ...(total !== null ? { totalCount: Number(total) } : {}),
    ...(stamp ? { stamp } : {}),
  };
}
