import type { IncomingMessage, ServerResponse } from 'node:http';
import { allowedOrigins, corsHeadersFor } from './access-policy';
import { apiBasePath, changeFeedEventName, changeFeedPath, type ChangeEvent } from '@otto/api-contract';

/**
 * Options of `createChangeStream`.
 * @example
 * const options: ChangeStreamOptions = { corsOrigin: 'http://localhost:5173', heartbeatMs: 15_000 };
 */
export interface ChangeStreamOptions {
  /**
   * Origins besides `http://localhost`, `http://127.0.0.1` and `http://[::1]` (any port) that may
   * open the stream with `EventSource` (echoed in `Access-Control-Allow-Origin`); `false` for none.
   * `*` is refused.
   * @default [] (localhost origins only)
   */
  corsOrigin?: string | readonly string[] | false;
  /**
   * How often a comment line is sent while nothing changes, so that proxies and the browser keep
   * the connection open.
   * @default 15000
   */
  heartbeatMs?: number;
}

/**
 * The change feed as Server-Sent Events: answers `GET /api/changes` with `text/event-stream`.
 * @example
 * const stream = createChangeStream(api);
 * createServer((req, res) => stream.serve(req, res) || handle(req, res));
 */
export interface ChangeStream {
  /** Whether the request asks for the feed (`GET /api/changes`). */
  isFeed(req: IncomingMessage): boolean;
  /** Answers the request when it asks for the feed (and returns true); otherwise returns false. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** How many clients are connected. */
  readonly clients: number;
  /** Ends every open stream. */
  close(): void;
}

/**
 * Serves a change feed (`subscribe` is `api.onChange` of `createMockApi`) as Server-Sent Events at
 * `GET /api/changes`: one `change` event per committed write, its data the `ChangeEvent` as JSON;
 * a comment line as heartbeat; each client's subscription ends when it disconnects.
 * @example
 * const api = await createMockApi();
 * const stream = createChangeStream((listener) => api.onChange(listener));
 * createServer((req, res) => stream.serve(req, res) || createNodeHandler(api.fetch)(req, res)).listen(8787);
 */
export function createChangeStream(
  subscribe: (listener: (event: ChangeEvent) => void) => () => void,
  options: ChangeStreamOptions = {},
): ChangeStream {
  const { corsOrigin, heartbeatMs = 15_000 } = options;
  const allowed = allowedOrigins(corsOrigin);
  const path = `${apiBasePath}${changeFeedPath}`;
  const open = new Set<ServerResponse>();

  const isFeed = (req: IncomingMessage) => req.method === 'GET' && (req.url ?? '').split('?')[0] === path;

  return {
    isFeed,
    serve(req, res) {
      if (!isFeed(req)) return false;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        ...(corsOrigin === false ? {} : corsHeadersFor(allowed, typeof req.headers.origin === 'string' ? req.headers.origin : undefined)),
      });
      // No replay: a client that reconnects has missed what changed meanwhile and must refetch.
      res.write(`retry: 2000\n: connected to the Otto change feed\n\n`);
      open.add(res);
      const unsubscribe = subscribe((event) => {
        res.write(`event: ${changeFeedEventName}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
      heartbeat.unref();
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(res);
      };
      res.on('close', end);
      req.on('close', end);
      return true;
    },
    get clients() {
      return open.size;
    },
    close() {
      for (const res of open) res.end();
      open.clear();
    },
  };
}
