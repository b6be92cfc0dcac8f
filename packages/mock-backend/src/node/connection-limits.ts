import type { Socket } from 'node:net';
import type { Refusal } from './access-policy';

/**
 * How many connections and change streams the server keeps open, in all and per client address
 * (decision 0131).
 * @example
 * const limits = createConnectionLimits({ maxConnections: 256, maxConnectionsPerClient: 64, maxChangeStreams: 64, maxChangeStreamsPerClient: 8, idleTimeoutMs: 5_000 });
 */
export interface ConnectionLimitOptions {
  maxConnections: number;
  maxConnectionsPerClient: number;
  maxChangeStreams: number;
  maxChangeStreamsPerClient: number;
  idleTimeoutMs: number;
}

/** The bookkeeping of `createConnectionLimits`. */
export interface ConnectionLimits {
  /**
   * For each new TCP connection, before it has sent a byte: false when its client address already
   * has `maxConnectionsPerClient` open (the connection is answered 503 and closed). Otherwise it is
   * closed if it sends no request within `idleTimeoutMs`.
   */
  accept(socket: Socket): boolean;
  /** For every request, before any check: the connection has sent one, so its first-request timeout ends. */
  requested(socket: Socket): void;
  /**
   * For a socket whose timeout fired (Node's server `timeout` event): one that never sent a whole
   * request is answered 408 in words; an idle keep-alive one is closed, as Node would.
   */
  timedOut(socket: Socket): void;
  /** For a request past the access checks: a refusal when the connections let in are at `maxConnections`. */
  admit(socket: Socket): Refusal | undefined;
  /** For a change-feed request past the access checks: a refusal when streams are at their limits. */
  openStream(socket: Socket): Refusal | undefined;
}

/**
 * Counts connections so that no single client, and no pile of change streams, can take the
 * server from everyone else. A connection counts towards the shared `maxConnections` only once it
 * has carried a request that passed the Host, origin and token checks; until then it is bounded by
 * its client's `maxConnectionsPerClient` and by `idleTimeoutMs`. A change stream leaves the shared
 * count for its own (`maxChangeStreams`, `maxChangeStreamsPerClient`).
 * @example
 * server.on('connection', (socket) => limits.accept(socket));
 */
export function createConnectionLimits(options: ConnectionLimitOptions): ConnectionLimits {
  const perClient = new Map<string, number>();
  const streamsPerClient = new Map<string, number>();
  const kind = new WeakMap<Socket, 'admitted' | 'stream'>();
  const servedSockets = new WeakSet<Socket>();
  let admitted = 0;
  let streams = 0;
  const clientOf = (socket: Socket) => socket.remoteAddress ?? 'unknown';
  const add = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n > 0) map.set(key, n);
    else map.delete(key);
  };

  return {
    accept(socket) {
      const client = clientOf(socket);
      if ((perClient.get(client) ?? 0) >= options.maxConnectionsPerClient) {
        socket.end(rawAnswer(503, 'SERVICE_UNAVAILABLE', `This client has ${options.maxConnectionsPerClient} connections open to the server, its limit. Close some and try again.`));
        socket.destroySoon();
        return false;
      }
      add(perClient, client, 1);
      // Until its first request (see timedOut); then Node's header, request and keep-alive timeouts apply.
      socket.setTimeout(options.idleTimeoutMs);
      socket.once('close', () => {
        add(perClient, client, -1);
        const was = kind.get(socket);
        if (was === 'admitted') admitted -= 1;
        if (was === 'stream') {
          streams -= 1;
          add(streamsPerClient, client, -1);
        }
      });
      return true;
    },
    requested(socket) {
      if (servedSockets.has(socket)) return;
      servedSockets.add(socket);
      socket.setTimeout(0);
    },
    timedOut(socket) {
      if (servedSockets.has(socket) || !socket.writable) {
        socket.destroy();
        return;
      }
      socket.end(rawAnswer(408, 'REQUEST_TIMEOUT', `No request was received within ${options.idleTimeoutMs} ms of connecting, so the connection is closed. Connect again and send the request at once.`));
      socket.destroySoon();
    },
    admit(socket) {
      if (kind.has(socket)) return undefined;
      if (admitted >= options.maxConnections) {
        return busy(`The server has ${options.maxConnections} connections open, its limit. Try again in a moment.`);
      }
      admitted += 1;
      kind.set(socket, 'admitted');
      return undefined;
    },
    openStream(socket) {
      const client = clientOf(socket);
      if ((streamsPerClient.get(client) ?? 0) >= options.maxChangeStreamsPerClient) {
        return busy(`This client has ${options.maxChangeStreamsPerClient} change feeds open, its limit. Close one (each tab or EventSource opens one) and try again.`);
      }
      if (streams >= options.maxChangeStreams) {
        return busy(`The server has ${options.maxChangeStreams} change feeds open, its limit. Try again in a moment; ordinary calls still work.`);
      }
      if (kind.get(socket) === 'admitted') admitted -= 1;
      kind.set(socket, 'stream');
      streams += 1;
      add(streamsPerClient, client, 1);
      return undefined;
    },
  };
}

function busy(message: string): Refusal {
  return { status: 503, code: 'SERVICE_UNAVAILABLE', message, headers: { 'retry-after': '1', connection: 'close' } };
}

const reasons: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/**
 * A whole HTTP/1.1 answer with the contract's JSON error, for a socket that has no request object
 * (refused before one exists, or one Node hands over raw). The connection closes after it.
 * @example
 * socket.end(rawAnswer(400, 'MALFORMED_REQUEST', 'The request is not well-formed HTTP.'));
 */
export function rawAnswer(status: number, code: string, message: string): string {
  const body = JSON.stringify({ code, message });
  return (
    `HTTP/1.1 ${status} ${reasons[status] ?? 'Error'}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    'x-content-type-options: nosniff\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    'connection: close\r\n\r\n' +
    body
  );
}
