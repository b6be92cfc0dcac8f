// Turns requests, responses and relay errors into the plain data that crosses a MessagePort, and back.
import { requestIdHeader } from '../runtime/request-id';

import type { PortMessage, Relayed, SerializedRequest, SerializedResponse } from './protocol';

/**
 * Answers the REQUEST messages that arrive on `port` (from the service worker) with `answer`, each
 * with a RESPONSE of the same id; starts the port.
 * @example
 * answerRequestsOn(port, (request) => serveRequest(request));
 */
export function answerRequestsOn(
  port: MessagePort,
  answer: (request: SerializedRequest, relayed?: Relayed) => Promise<SerializedResponse>,
): void {
  port.addEventListener('message', (event: MessageEvent<PortMessage>) => {
    const message = event.data;
    if (message?.type !== 'REQUEST') return;
    void answer(message.request, { deadline: message.deadline, tried: message.tried }).then((response) =>
      port.postMessage({ type: 'RESPONSE', id: message.id, response } satisfies PortMessage, transferablesOf(response)),
    );
  });
  port.start();
}

/**
 * Reads a Request into its transferable form. A write gets a request id (`x-otto-request-id`,
 * unless it has one), so that the database runs it at most once however often it is sent: a
 * write that was on its way to an owner tab that closed is sent to the next owner, which answers
 * what the first run answered if that one committed (decision 0054).
 */
export async function serializeRequest(request: Request): Promise<SerializedRequest> {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const headers = [...request.headers];
  if (hasBody && !request.headers.has(requestIdHeader)) headers.push([requestIdHeader, crypto.randomUUID()]);
  return {
    url: request.url,
    method: request.method,
    headers,
    body: hasBody ? await request.arrayBuffer() : null,
  };
}

/** True when a serialized request may be sent again to another owner: a read, a PUT, or a write with a request id. */
export function safeToResend(request: SerializedRequest): boolean {
  return ['GET', 'HEAD', 'OPTIONS', 'PUT'].includes(request.method.toUpperCase()) || request.headers.some(([name]) => name.toLowerCase() === requestIdHeader);
}

/** Rebuilds a Request from its transferable form. */
export function deserializeRequest(data: SerializedRequest): Request {
  return new Request(data.url, {
    method: data.method,
    headers: data.headers,
    ...(data.body && data.body.byteLength > 0 ? { body: data.body } : {}),
  });
}

/** Reads a Response into its transferable form. */
export async function serializeResponse(response: Response): Promise<SerializedResponse> {
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: response.body ? await response.arrayBuffer() : null,
  };
}

const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** Rebuilds a Response from its transferable form. */
export function deserializeResponse(data: SerializedResponse): Response {
  // A dropped connection (a scenario's `error: 'network'`): fetch rejects for it.
  if (data.status === 0 || data.headers.some(([header]) => header.toLowerCase() === networkErrorHeader)) return Response.error();
  const body = nullBodyStatuses.has(data.status) ? null : data.body;
  return new Response(body, { status: data.status, statusText: data.statusText, headers: data.headers });
}

/** Marks an answer on the wire that stands for a dropped connection. */
export const networkErrorHeader = 'x-otto-network-error';

/**
 * A dropped connection on the wire: a 499 (under 500, so no relay takes it for a failure to send
 * elsewhere) marked with `networkErrorHeader`, which `deserializeResponse` turns into
 * `Response.error()`. A relay of an older version answers the page this 499 instead. A new one each
 * time: its body is transferred.
 */
export const networkErrorAnswer = (): SerializedResponse => ({
  status: 499,
  statusText: 'Network error',
  headers: [
    [networkErrorHeader, '1'],
    ['content-type', 'application/json; charset=utf-8'],
  ],
  body: new TextEncoder().encode(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'The connection was dropped (a scenario).' })).buffer as ArrayBuffer,
});

/** The buffers to transfer with a message, so that bodies move instead of being copied. */
export function transferablesOf(data: SerializedRequest | SerializedResponse): Transferable[] {
  return data.body ? [data.body] : [];
}

/** A JSON error answer `{ code, message }` (the api-contract's error shape) built without dependencies. */
export function relayErrorResponse(
  status: 503 | 504,
  code: 'SERVICE_UNAVAILABLE' | 'TIMEOUT',
  message: string,
): Response {
  return new Response(JSON.stringify({ code, message }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** The same error answer in its transferable form. */
export function relayErrorSerialized(
  status: 503 | 504,
  code: 'SERVICE_UNAVAILABLE' | 'TIMEOUT',
  message: string,
): SerializedResponse {
  const body = new TextEncoder().encode(JSON.stringify({ code, message })).buffer as ArrayBuffer;
  return {
    status,
    statusText: status === 503 ? 'Service Unavailable' : 'Gateway Timeout',
    headers: [
      ['content-type', 'application/json; charset=utf-8'],
      ['cache-control', 'no-store'],
    ],
    body,
  };
}

/** Plain text of any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

