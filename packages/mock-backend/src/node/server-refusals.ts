import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiBasePath, bodyLimitOf } from '@otto/api-contract';
import type { Refusal } from './access-policy';

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A method the API has no use for (TRACE, CONNECT, PROPFIND…) is refused with 501 in words. */
export function unknownMethod(method: string | undefined): Refusal | undefined {
  if (method !== undefined && knownMethods.has(method)) return undefined;
  return {
    status: 501,
    code: 'METHOD_NOT_ALLOWED',
    message: `This server does not answer ${String(method ?? '').slice(0, 20)} requests. Use GET, POST, PUT, PATCH or DELETE.`,
    headers: { allow: [...knownMethods].join(', ') },
  };
}

/** A request target that is no URL path (`//[`, `//host:99999`) is refused before anyone parses it. */
export function badTarget(url: string | undefined): Refusal | undefined {
  if (URL.canParse(url ?? '/', 'http://localhost')) return undefined;
  return { status: 400, code: 'MALFORMED_REQUEST', message: 'The request target is not a URL path. Send a path such as /api/customers.' };
}

/** A body declared larger than the API takes is refused before it is read. */
export function tooLargeEarly(req: IncomingMessage): Refusal | undefined {
  const declared = Number(req.headers['content-length'] ?? 0);
  const path = URL.canParse(req.url ?? '/', 'http://localhost') ? new URL(req.url ?? '/', 'http://localhost').pathname : '/';
  const max = bodyLimitOf(req.method ?? 'GET', path.startsWith(apiBasePath) ? path.slice(apiBasePath.length) : path);
  if (!(declared > max)) return undefined;
  return {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `The request body is larger than ${max} bytes. Send less data in one request.`,
  };
}

/** Answers a refusal in words; the body of the refused request is not read. */
export function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal, cors: Record<string, string>): void {
  const body = JSON.stringify({ code: refusal.code, message: refusal.message });
  // The body of a refused request is not read: the connection closes after the answer.
  const unread = req.method !== 'GET' && req.method !== 'HEAD' && (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined);
  res.writeHead(refusal.status, {
    ...cors,
    ...refusal.headers,
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': String(Buffer.byteLength(body)),
    ...(unread ? { connection: 'close' } : {}),
  });
  res.end(body);
  if (unread) req.resume();
}
