import type { IncomingMessage, ServerResponse } from 'node:http';
import { totalCountHeader } from '@otto/api-contract';
import { sendResponse, toRequest } from './node-http';

/**
 * Options of `createNodeHandler`.
 * @example
 * const options: NodeHandlerOptions = { corsOrigin: 'http://localhost:5173', onRequest: (e) => console.log(e.method, e.path, e.status) };
 */
export interface NodeHandlerOptions {
  /**
   * The origin browsers may call from (`Access-Control-Allow-Origin`), or `false` for no CORS
   * headers at all.
   * @default '*'
   */
  corsOrigin?: string | false;
  /** Told about every answered request (for a request log). */
  onRequest?: (event: { method: string; path: string; status: number; durationMs: number }) => void;
}

/**
 * Serves any `Request → Response` function (such as `createMockApi().fetch`) with Node's `http`
 * module: converts the IncomingMessage to a Request and the Response back, adds CORS headers that
 * let a browser app on another origin read `X-Total-Count`, and answers CORS preflights.
 * @example
 * import { createServer } from 'node:http';
 * const api = await createMockApi();
 * createServer(createNodeHandler((request) => api.fetch(request))).listen(8787);
 */
export function createNodeHandler(
  fetchFn: (request: Request) => Promise<Response>,
  options: NodeHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const corsOrigin = options.corsOrigin ?? '*';
  const cors: Record<string, string> =
    corsOrigin === false
      ? {}
      : {
          'access-control-allow-origin': corsOrigin,
          'access-control-expose-headers': totalCountHeader,
          ...(corsOrigin === '*' ? {} : { vary: 'Origin' }),
        };

  return (req, res) => {
    const started = Date.now();
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const done = (status: number) => options.onRequest?.({ method, path, status, durationMs: Date.now() - started });

    // A CORS preflight is the browser asking, not a call of the API.
    if (corsOrigin !== false && method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'GET, POST, PUT, PATCH',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'content-type',
        'access-control-max-age': '600',
        'content-length': '0',
      });
      res.end();
      done(204);
      return;
    }

    void (async () => {
      let response: Response;
      try {
        response = await fetchFn(await toRequest(req, 'http://localhost'));
      } catch (error) {
        const message = `The server could not answer: ${(error as Error)?.message ?? error}`;
        response = Response.json({ code: 'INTERNAL', message }, { status: 500 });
      }
      await sendResponse(res, response, cors);
      done(response.status);
    })().catch((error: unknown) => {
      res.destroy(error as Error);
    });
  };
}
