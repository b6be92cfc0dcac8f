import type { ApiErrorCode } from '../api-error';
import { limits } from '../limits';
import type { RouteDefinition } from '../routes';
import { schemaRefPrefix } from './schema-components';

/** Each JSON error status the decisions allow (0001, 0003), with the codes it carries. */
const errorKinds = {
  BadRequest: {
    status: 400,
    codes: ['INVALID_JSON', 'VALIDATION_FAILED', 'INVALID_PARAMS'],
    description: 'The request is wrong: a body that is not JSON (INVALID_JSON), a field breaking its rule (VALIDATION_FAILED), or a filter out of range (INVALID_PARAMS); issues name each field.',
  },
  Unauthorized: {
    status: 401,
    codes: ['UNAUTHORIZED'],
    description: 'The HTTP server wants a bearer token (it listens beyond loopback, or was started with --token) and the request had none, or another one. Send `Authorization: Bearer <token>`.',
  },
  OriginNotAllowed: {
    status: 403,
    codes: ['ORIGIN_NOT_ALLOWED'],
    description: 'The HTTP server does not take calls from pages of this Origin: only localhost origins and those it was started with (--cors-origin).',
  },
  NotFound: {
    status: 404,
    codes: ['NOT_FOUND'],
    description: 'Nothing has this id, or the id is not a positive whole number.',
  },
  Conflict: { status: 409, codes: ['CONFLICT'], description: 'The change conflicts with the current state; `allowed` lists what would be accepted.' },
  PreconditionFailed: {
    status: 412,
    codes: ['PRECONDITION_FAILED'],
    description: 'The record changed since the version named in If-Match; nothing was saved. Load it again and retry.',
  },
  PayloadTooLarge: { status: 413, codes: ['PAYLOAD_TOO_LARGE'], description: `The body is larger than ${limits.maxBodyBytes} bytes (an import's: ${limits.maxImportBodyBytes} bytes).` },
  UnsupportedMediaType: {
    status: 415,
    codes: ['UNSUPPORTED_MEDIA_TYPE'],
    description: 'The body is not sent as application/json (the HTTP server checks the content type of every write); nothing was changed.',
  },
  RequestIdReused: {
    status: 422,
    codes: ['REQUEST_ID_REUSED'],
    description: 'The X-Otto-Request-Id was sent before with another request (another method, path or body); this one was not run. Send a new id with every new request.',
  },
  MisdirectedRequest: {
    status: 421,
    codes: ['MISDIRECTED_REQUEST'],
    description: 'The HTTP server does not answer to the name in the Host header (DNS rebinding): only localhost, 127.0.0.1, [::1] and the names it was started with (--allowed-host).',
  },
  InternalError: { status: 500, codes: ['INTERNAL'], description: 'The backend failed; never the answer to anything a client sends. Nothing was changed.' },
  ServiceUnavailable: {
    status: 503,
    codes: ['SERVICE_UNAVAILABLE'],
    description: 'The database is not available right now (another browser tab is taking it over); try again.',
  },
  Timeout: { status: 504, codes: ['TIMEOUT'], description: 'The database did not answer in time (the in-browser relay).' },
  StorageFull: { status: 507, codes: ['STORAGE_FULL'], description: 'The storage refused more data; nothing was saved.' },
} as const satisfies Record<string, { status: number; codes: readonly ApiErrorCode[]; description: string }>;

type ErrorKind = keyof typeof errorKinds;

/** `components.responses` for every JSON error: the ApiError shape with the codes of its status. */
export function errorResponses(): Record<ErrorKind, unknown> {
  return Object.fromEntries(
    Object.entries(errorKinds).map(([kind, { codes, description }]) => {
      const apiError = { $ref: `${schemaRefPrefix}ApiError` };
      const schema = codes.length ? { allOf: [apiError, { properties: { code: { enum: codes } } }] } : apiError;
      return [kind, { description, content: { 'application/json': { schema } } }];
    }),
  ) as Record<ErrorKind, unknown>;
}

/** The spec's answer to a request that matches no operation. */
export const notFoundTextResponse = {
  description: "The spec's plain-text 404 (section 7): a path outside the API base, an unknown resource, or a method a path does not take.",
  content: { 'text/plain': { schema: { type: 'string', const: 'Not found' } } },
};

/**
 * The JSON errors one call can give, derived from its shape: a body can be wrong or too large, an
 * id can find nothing, a filter can be out of range, a write can meet a full disk, and any call can
 * meet a backend that is busy or broken. The route's own `errors` add to the description.
 */
export function errorStatusesOf(route: RouteDefinition): { status: number; ref: string; description?: string }[] {
  const own = route.errors ?? {};
  const kinds: ErrorKind[] = [];
  if (route.body || route.filterJson || own[400]) kinds.push('BadRequest');
  // The HTTP server's refusals (decision 0050) can meet any call; the in-browser backend gives none of them.
  kinds.push('Unauthorized', 'OriginNotAllowed');
  if (route.params || own[404]) kinds.push('NotFound');
  if (own[409]) kinds.push('Conflict');
  if (route.etag && route.method !== 'GET') kinds.push('PreconditionFailed');
  if (route.body) kinds.push('PayloadTooLarge', 'UnsupportedMediaType');
  kinds.push('MisdirectedRequest');
  if (route.method !== 'GET') kinds.push('RequestIdReused');
  kinds.push('InternalError', 'ServiceUnavailable', 'Timeout');
  if (route.method !== 'GET') kinds.push('StorageFull');
  return kinds.map((kind) => {
    const { status, description } = errorKinds[kind];
    const extra = status === 400 || status === 404 || status === 409 || status === 413 ? own[status] : undefined;
    return { status, ref: `#/components/responses/${kind}`, ...(extra ? { description: `${description} ${extra}` } : {}) };
  });
}
