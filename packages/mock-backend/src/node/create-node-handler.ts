import type { IncomingMessage, ServerResponse } from 'node:http';
import { totalCountHeader } from '@otto/api-contract';
import { allowedOrigins, corsHeadersFor } from './access-policy';
import { sendResponse, toRequest } from './node-http';
import { badTarget, refuse, unknownMethod } from './server-refusals';

/**
 * Options of `createNodeHandler`.
 * @example
 * const options: NodeHandlerOptions = { corsOrigin: 'http://localhost:5173', onRequest: (e) => console.log(e.method, e.path, e.status) };
 */
export interface NodeHandlerOptions {
  /**
   * Origins browsers may call from besides `http://localhost`, `http://127.0.0.1` and `http://[::1]`
   * (any port), or `false` for no CORS at all. The allowed origin is echoed in
   * `Access-Control-Allow-Origin` with `Vary: Origin`; `*` is refused (the API answers with data).
   * @default [] (localhost origins only)
   */
  corsOrigin?: string | readonly string[] | false;
  /** Told about every answered request (for a request log). */
  onRequest?: (event: { method: string; path: string; status: number; durationMs: number }) => void;
}

/**
 * Serves any `Request → Response` function (such as `createMockApi().fetch`) with Node's `http`
 * module: converts the IncomingMessage to a Request and the Response back, adds CORS headers that
 * let a browser app on an allowed origin read `X-Total-Count`, and answers its CORS preflights
 * (a preflight from any other origin gets 403). It checks no `Host`, origin or token: `createMockServer` does.
 * @example
 * import { createServer } from 'node:http';
 * const api = await createMockApi();
 * createServer(createNodeHandler((request) => api.fetch(request))).listen(8787);
 */
export function createNodeHandler(
  fetchFn: (request: Request) => Promise<Response>,
  options: NodeHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const corsOff = options.corsOrigin === false;
  const allowed = allowedOrigins(options.corsOrigin);

  return (req, res) => {
    const started = Date.now();
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    // A token in the query (the change feed's) never reaches the log.
    const done = (status: number) => options.onRequest?.({ method, path: redactToken(path), status, durationMs: Date.now() - started });
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    const cors = corsOff ? {} : corsHeadersFor(allowed, origin, totalCountHeader);

    // A CORS preflight is the browser asking, not a call of the API: answered for allowed origins only.
    if (!corsOff && method === 'OPTIONS' && req.headers['access-control-request-method']) {
      if (!allowed(origin)) {
        refuse(req, res, { status: 403, code: 'ORIGIN_NOT_ALLOWED', message: `Pages from ${origin ?? 'an unnamed origin'} may not call this server.` }, cors);
        done(403);
        return;
      }
      res.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'content-type',
        'access-control-max-age': '600',
        'content-length': '0',
      });
      res.end();
      done(204);
      return;
    }

    // TRACE, CONNECT, PROPFIND… (the API has no use for them; fetch's Request refuses some), and a
    // target that is no URL path: refused in words, never a 500.
    const refusal = unknownMethod(method) ?? badTarget(path);
    if (refusal) {
      refuse(req, res, refusal, cors);
      done(refusal.status);
      return;
    }

    void (async () => {
      let response: Response;
      try {
        response = await fetchFn(await toRequest(req, 'http://localhost'));
      } catch {
        // What went wrong inside stays inside: the answer says what to do, not what the code said.
        response = Response.json(
          { code: 'INTERNAL', message: 'The server could not answer this request; nothing was changed. Try again, and report it if it persists.' },
          { status: 500 },
        );
      }
      await sendResponse(res, response, cors);
      done(response.status);
    })().catch((error: unknown) => {
      res.destroy(error as Error);
    });
  };
}

/** `/api/changes?token=…` → `/api/changes?token=…` with the value hidden. */
function redactToken(path: string): string {
  return path.replace(/([?&]token=)[^&]*/gi, '$1(hidden)');
}
