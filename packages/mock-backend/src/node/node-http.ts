import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiBasePath, bodyLimitOf, limits } from '@otto/api-contract';

/**
 * Turns a Node request into a standard `Request`. The body is read up to one byte past the API's
 * limit, so that an oversized body still reaches the API (which answers 413) without being held in
 * memory whole.
 */
export async function toRequest(req: IncomingMessage, fallbackOrigin: string): Promise<Request> {
  const origin = originOf(req, fallbackOrigin);
  const url = new URL(req.url ?? '/', origin);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const below = url.pathname.startsWith(apiBasePath) ? url.pathname.slice(apiBasePath.length) : url.pathname;
  // A fixture for the control routes (/api/__otto/data) may be as large as an import.
  const limit = below.startsWith('/__otto/') ? limits.maxImportBodyBytes : bodyLimitOf(method, below);
  const body = hasBody ? await readBody(req, limit + 1) : undefined;
  return new Request(url, { method, headers, ...(body ? { body } : {}) });
}

function originOf(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  if (host && URL.canParse(`http://${host}`)) return `http://${host}`;
  return fallback;
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (size >= maxBytes) continue; // drain the rest without keeping it
    const part = chunk.subarray(0, maxBytes - size);
    chunks.push(part);
    size += part.length;
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

/** Writes a standard `Response` to a Node response, with `extraHeaders` (CORS) added. */
export async function sendResponse(res: ServerResponse, response: Response, extraHeaders: Record<string, string> = {}): Promise<void> {
  // A network error (a scenario's `error: 'network'`): the connection drops without an answer.
  if (response.type === 'error') {
    res.destroy();
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...headers, ...extraHeaders, 'x-content-type-options': 'nosniff', 'content-length': String(body.length) });
  res.end(body);
}
