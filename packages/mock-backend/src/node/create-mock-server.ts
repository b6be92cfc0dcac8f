import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiBasePath } from '@otto/api-contract';
import type { SqliteStore } from '@otto/sqlite-store';
import { createNodeSqliteStore } from '@otto/sqlite-store/node';
import { createMockApi } from '../create-mock-api';
import type { MockApi, MockApiOptions } from '../types';
import { createChangeStream } from './change-stream';
import { withApiDocs } from './api-docs';
import { createNodeHandler, type NodeHandlerOptions } from './create-node-handler';

/**
 * Options of `createMockServer`: where to listen, where the data lives, and the API's own options.
 * @example
 * const options: MockServerOptions = { port: 8787, filename: './otto.sqlite', seed: { count: 100 } };
 */
export interface MockServerOptions extends Omit<MockApiOptions, 'store'>, NodeHandlerOptions {
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
  readonly api: MockApi;
  /** The underlying Node server. */
  readonly server: Server;
  /** Stops accepting requests, ends open connections and closes the database. */
  close(): Promise<void>;
}

/**
 * Serves the Otto mock API over HTTP with Node's `http` module: the same handlers as in the
 * browser, with CORS for browser clients, and the data in a SQLite file when `filename` is given.
 * @example
 * import { createMockServer } from '@otto/mock-backend/node';
 * const server = await createMockServer({ port: 8787, filename: './otto.sqlite' });
 * const res = await fetch(`${server.url}/customers`); // the 10 most recently modified customers
 * await server.close();
 */
export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 8787, host = '127.0.0.1', filename, store: givenStore, corsOrigin, onRequest, ...apiOptions } = options;
  const ownStore = givenStore ? undefined : filename !== undefined ? createNodeSqliteStore({ filename }) : undefined;
  const store = givenStore ?? ownStore;
  let api: MockApi;
  try {
    api = await createMockApi({ ...apiOptions, ...(store ? { store } : {}) });
  } catch (error) {
    await ownStore?.close();
    throw error;
  }
  // The change feed (GET /api/changes, Server-Sent Events) is answered before the API.
  const changes = createChangeStream((listener) => api.onChange(listener), { ...(corsOrigin !== undefined ? { corsOrigin } : {}) });
  const handle = createNodeHandler(withApiDocs((request) => api.fetch(request)), { ...(corsOrigin !== undefined ? { corsOrigin } : {}), ...(onRequest ? { onRequest } : {}) });
  const server = createServer((req, res) => changes.serve(req, res) || handle(req, res));
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
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${urlHost}:${actualPort}${apiBasePath}`,
    port: actualPort,
    api,
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
