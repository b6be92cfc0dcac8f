import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { apiBasePath, createOpenApiDocument, routes, totalCountHeader } from '@otto/api-contract';
import type { SqliteStore } from '@otto/sqlite-store';
import { createNodeSqliteStore } from '@otto/sqlite-store/node';
import { createMockApi } from '../create-mock-api';
import { extensionRouteTable } from '../runtime/extensions';
import type { PostgresApi } from '../postgres/create-postgres-api';
import type { MockApi, MockApiOptions } from '../types';
import { createAccessPolicy, isLoopback, type AccessOptions, type Refusal } from './access-policy';
import { createChangeStream } from './change-stream';
import { createConnectionLimits, rawAnswer } from './connection-limits';
import { withApiDocs } from './api-docs';
import { createNodeHandler, type NodeHandlerOptions } from './create-node-handler';
import { badTarget, refuse, tooLargeEarly, unknownMethod } from './server-refusals';

/**
 * Options of `createMockServer`: where to listen, where the data lives, and the API's own options.
 * @example
 * const options: MockServerOptions = { port: 8787, filename: './otto.sqlite', seed: { count: 100 } };
 */
export interface MockServerOptions extends Omit<MockApiOptions, 'store'>, NodeHandlerOptions, Omit<AccessOptions, 'corsOrigins'> {
  /**
   * TCP port; 0 picks a free one (read it from `server.port`).
   * @default 8787
   */
  port?: number;
  /**
   * Interface to listen on. Use '0.0.0.0' to accept connections from other machines.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * SQLite file that keeps the data across restarts, opened through better-sqlite3 (install it
   * next to this package). Without it the data lives in memory (SQLite WASM) and is gone when the
   * server stops.
   */
  filename?: string;
  /** A store to use instead of `filename` (it stays open after `close()`). */
  store?: SqliteStore;
  /**
   * A PostgreSQL database to serve the API from instead of SQLite: `postgres://user:password@host:port/name`
   * (needs the `pg` package: npm install pg). Several servers may share one database; each serves
   * the change feed for writes made through any of them. Extensions need SQLite.
   */
  database?: string;
  /**
   * With `database`: connections this server keeps open to PostgreSQL at most.
   * @default 10
   */
  poolSize?: number;
  /** Limits of what one client may take; each refusal is a 4xx (or 503) in words. */
  serverLimits?: ServerLimits;
  /**
   * Whether the test controls (`/api/__otto/…`: scenarios, fixtures, snapshots) answer. A server
   * whose data outlives it (`filename`, `database`) keeps a team's data: they are off there unless
   * this says so (a server started for development on a file). On PostgreSQL they never answer.
   * @default true in memory (or with a `store` given), false with `filename` or `database`
   */
  testControls?: boolean;
}

/**
 * How much one request or client may take of the server.
 * @example
 * const serverLimits: ServerLimits = { maxHeaderBytes: 8192, maxConnections: 64 };
 */
export interface ServerLimits {
  /**
   * Largest request head (request line and headers); a larger one gets 431.
   * @default 16384
   */
  maxHeaderBytes?: number;
  /**
   * Time to receive a request's headers; a slower client gets 408.
   * @default 10000
   */
  headersTimeoutMs?: number;
  /**
   * Time to receive a whole request (headers and body); a slower client gets 408.
   * @default 30000
   */
  requestTimeoutMs?: number;
  /**
   * Connections let in at once: those that carried a request past the Host, origin and token
   * checks (change streams are counted apart). A request on one more gets 503 and the connection
   * closes. Connections that have sent nothing, or only refused requests, do not count.
   * @default 256
   */
  maxConnections?: number;
  /**
   * Open connections from one client address, counted as they connect (before any request); one
   * more is answered 503 and closed at once. Behind a reverse proxy every client has the proxy's
   * address: raise it there.
   * @default 64
   */
  maxConnectionsPerClient?: number;
  /**
   * Change feeds (`/api/changes`, Server-Sent Events) open at once, apart from `maxConnections`:
   * one more gets 503 in words; ordinary calls are not affected.
   * @default 64
   */
  maxChangeStreams?: number;
  /**
   * Change feeds open at once from one client address.
   * @default 8
   */
  maxChangeStreamsPerClient?: number;
  /**
   * A connection idle this long before its first request is answered 408 in words and closed; one
   * idle this long between requests is closed (Node's `keepAliveTimeout`).
   * @default 5000
   */
  idleTimeoutMs?: number;
  /**
   * How often Node looks for clients past `headersTimeoutMs` / `requestTimeoutMs`.
   * @default 1000
   */
  timeoutCheckIntervalMs?: number;
}

/**
 * A running HTTP server for the mock API.
 * @example
 * const server: MockServer = await createMockServer({ port: 0 });
 * console.log(server.url); // http://127.0.0.1:40123/api
 */
export interface MockServer {
  /** Base URL of the API, `/api` included: `http://127.0.0.1:8787/api`. */
  readonly url: string;
  readonly port: number;
  readonly api: MockApi | PostgresApi;
  /**
   * The bearer token calls must carry, or undefined when the server wants none (loopback without
   * `token`). Given with `token`, or generated when the server listens beyond loopback.
   */
  readonly token: string | undefined;
  /** Where the data lives: SQLite (in memory or a file) or PostgreSQL. */
  readonly dialect: 'sqlite' | 'postgres';
  /** Whether the test controls (scenarios, fixtures, snapshots) answer on this server. */
  readonly testControls: boolean;
  /** The underlying Node server. */
  readonly server: Server;
  /** Stops accepting requests, ends open connections and closes the database. */
  close(): Promise<void>;
}

/**
 * Serves the Otto mock API over HTTP with Node's `http` module: the same handlers as in the
 * browser, and the data in a SQLite file when `filename` is given. It lets in only whom it should
 * (decision 0050): `Host` must be a name it answers to (else 421), a browser origin must be a
 * localhost one or named in `corsOrigin` (else 403), writes must be JSON (else 415), and beyond
 * loopback every call needs the bearer token (else 401; `/api/docs` and `/api/openapi.json` stay public).
 * @example
 * import { createMockServer } from '@otto/mock-backend/node';
 * const server = await createMockServer({ port: 8787, filename: './otto.sqlite' });
 * const res = await fetch(`${server.url}/customers`); // the 10 most recently modified customers
 * await server.close();
 */
export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 8787, host = '127.0.0.1', filename, store: givenStore, database, poolSize, corsOrigin, onRequest, allowedHosts, token: givenToken, tokensFile, serverLimits = {}, testControls, ...apiOptions } = options;
  if (database !== undefined && !isPostgresUrl(database)) {
    throw new TypeError(`database must be a postgres:// or postgresql:// address; got ${JSON.stringify(database.slice(0, 40))}.`);
  }
  if (database !== undefined && (filename !== undefined || givenStore)) throw new TypeError('Give either database (PostgreSQL) or filename/store (SQLite), not both.');
  if (database !== undefined && apiOptions.extensions?.length) throw new TypeError('Extensions need a SQLite store; they cannot run on PostgreSQL.');
  if (corsOrigin === '*' || (Array.isArray(corsOrigin) && corsOrigin.includes('*'))) {
    throw new TypeError('corsOrigin "*" is not allowed: any website could read and change the data. Name each origin that may call.');
  }
  if (givenToken !== undefined && givenToken.trim().length < 8) {
    throw new TypeError('The token is too short: use at least 8 characters (or leave it out on loopback).');
  }
  // Beyond loopback anyone on the network could call: a token is then required, made here if not given.
  const token = givenToken ?? (isLoopback(host) ? undefined : randomBytes(24).toString('base64url'));
  const ownStore = givenStore ? undefined : filename !== undefined ? createNodeSqliteStore({ filename }) : undefined;
  const store = givenStore ?? ownStore;
  // Only a server whose data does not outlive it answers the test controls, unless asked (decision 0164).
  const controls = database === undefined && (testControls ?? filename === undefined);
  let api: MockApi | PostgresApi;
  try {
    if (database !== undefined) {
      // Loaded only here, so that SQLite users never need the PostgreSQL driver.
      const { createPostgresApi } = await import('../postgres/create-postgres-api');
      const { seed, now, logger, onChange } = apiOptions;
      if (seed && 'file' in seed) throw new TypeError('On PostgreSQL, seed with { count } or { data } (seed data, not a SQLite file).');
      api = await createPostgresApi({
        connectionString: database,
        ...(poolSize !== undefined ? { poolSize } : {}),
        ...(seed !== undefined ? { seed } : {}),
        ...(now ? { now } : {}),
        ...(logger ? { logger } : {}),
        ...(onChange ? { onChange } : {}),
      });
    } else {
      api = await createMockApi({ ...apiOptions, ...(store ? { store } : {}), testControls: controls });
    }
  } catch (error) {
    await ownStore?.close();
    throw error;
  }
  // The change feed (GET /api/changes, Server-Sent Events) is answered before the API.
  const changes = createChangeStream((listener) => api.onChange(listener), { ...(corsOrigin !== undefined ? { corsOrigin } : {}) });
  // The document describes your routes too, each extension a group of its own.
  const document = apiOptions.extensions?.length ? createOpenApiDocument({ routes: { ...routes, ...extensionRouteTable(apiOptions.extensions) } }) : undefined;
  const handle = createNodeHandler(withApiDocs((request) => api.fetch(request), document ? { document } : {}), { ...(corsOrigin !== undefined ? { corsOrigin } : {}), ...(onRequest ? { onRequest } : {}) });
  const corsOrigins = corsOrigin === false ? [] : typeof corsOrigin === 'string' ? [corsOrigin] : (corsOrigin ?? []);
  let listeningPort = port;
  const policy = createAccessPolicy(host, () => listeningPort, { corsOrigins, ...(allowedHosts ? { allowedHosts } : {}), ...(token ? { token } : {}), ...(tokensFile ? { tokensFile } : {}) }, totalCountHeader);
  const idleTimeoutMs = serverLimits.idleTimeoutMs ?? 5_000;
  const limits = createConnectionLimits({
    maxConnections: serverLimits.maxConnections ?? 256,
    maxConnectionsPerClient: serverLimits.maxConnectionsPerClient ?? 64,
    maxChangeStreams: serverLimits.maxChangeStreams ?? 64,
    maxChangeStreamsPerClient: serverLimits.maxChangeStreamsPerClient ?? 8,
    idleTimeoutMs,
  });
  const server = createServer(
    {
      maxHeaderSize: serverLimits.maxHeaderBytes ?? 16_384,
      headersTimeout: serverLimits.headersTimeoutMs ?? 10_000,
      requestTimeout: serverLimits.requestTimeoutMs ?? 30_000,
      keepAliveTimeout: idleTimeoutMs,
      connectionsCheckingInterval: serverLimits.timeoutCheckIntervalMs ?? 1_000,
    },
    (req, res) => {
      limits.requested(req.socket);
      res.setHeader('x-content-type-options', 'nosniff');
      // Cheap checks first; the token before anything that counts towards a shared limit or reads a body.
      const refusal =
        unknownMethod(req.method) ??
        badTarget(req.url) ??
        policy.check(req) ??
        (changes.isFeed(req) ? limits.openStream(req.socket) : limits.admit(req.socket)) ??
        tooLargeEarly(req);
      if (refusal) {
        refuse(req, res, refusal, corsOrigin === false ? {} : policy.corsHeaders(req));
        onRequest?.({ method: req.method ?? 'GET', path: (req.url ?? '/').replace(/([?&]token=)[^&]*/gi, '$1(hidden)'), status: refusal.status, durationMs: 0 });
        return;
      }
      if (!changes.serve(req, res)) handle(req, res);
    },
  );
  server.on('connection', (socket) => limits.accept(socket));
  server.on('timeout', (socket: Socket) => limits.timedOut(socket));
  // CONNECT asks for a tunnel, which this server never opens.
  server.on('connect', (_req, socket: Socket) => {
    const { status, code, message } = unknownMethod('CONNECT') as Refusal;
    socket.end(rawAnswer(status, code, message));
  });
  // What Node refuses before a request exists (too large a head, too slow, not HTTP) is answered in
  // words too; the parser's own message stays out of the answer.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const refusal: Refusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? { status: 431, code: 'HEADERS_TOO_LARGE', message: `The request's headers are larger than ${serverLimits.maxHeaderBytes ?? 16_384} bytes. Send fewer or shorter headers.` }
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request was not received in time. Send it again, all at once.' }
          : { status: 400, code: 'MALFORMED_REQUEST', message: 'The request is not well-formed HTTP/1.1. Send a request line, headers and a blank line.' };
    socket.end(rawAnswer(refusal.status, refusal.code, refusal.message));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await api.close();
    await ownStore?.close();
    throw error;
  }
  const actualPort = (server.address() as AddressInfo).port;
  listeningPort = actualPort;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${urlHost}:${actualPort}${apiBasePath}`,
    port: actualPort,
    api,
    dialect: database !== undefined ? 'postgres' : 'sqlite',
    testControls: controls,
    token,
    server,
    close() {
      closing ??= (async () => {
        changes.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await api.close();
        await ownStore?.close();
      })();
      return closing;
    },
  };
}

/** Whether `value` names a PostgreSQL database (`postgres://…` or `postgresql://…`). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}
