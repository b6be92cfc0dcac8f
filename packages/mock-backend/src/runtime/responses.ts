import type { ApiErrorBody } from '@otto/api-contract';

// nosniff: an answer is read as what it says it is, never guessed as HTML (decision 0131), in every
// host (the DB worker, Node, any fetch-style server).
const jsonHeaders = { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff' };

/** A 200 (or other status) JSON response. */
export function jsonResponse(data: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(data), {
    status: init.status ?? 200,
    headers: { ...jsonHeaders, ...init.headers },
  });
}

/** A JSON answer from its parts (a write's answer, as it was sent or as the request log kept it). */
export function replayResponse(answer: { status: number; headers: Record<string, string>; body: string }): Response {
  return new Response(answer.body, { status: answer.status, headers: { ...jsonHeaders, ...answer.headers } });
}

/** A JSON error response in the contract's shape. */
export function errorResponse(status: number, body: ApiErrorBody): Response {
  return jsonResponse(body, { status });
}

/** The spec's plain-text 404 for paths outside /api/ and unknown resources or methods. */
export function notFoundText(): Response {
  return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' } });
}
