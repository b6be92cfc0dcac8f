import { timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { apiBasePath, changeFeedPath, type ApiErrorCode } from '@otto/api-contract';

/**
 * Who may call the server (decision 0050): which `Host` names it answers to, which browser origins
 * may call it, and the bearer token it wants.
 * @example
 * const access: AccessOptions = { allowedHosts: ['otto.lan'], corsOrigins: ['https://app.example.com'], token: 's3cret' };
 */
export interface AccessOptions {
  /**
   * More names the `Host` header may carry, besides localhost, 127.0.0.1, [::1] and the address
   * the server listens on. `name` allows it at the server's port; `name:port` at that port only.
   * @default []
   */
  allowedHosts?: readonly string[];
  /**
   * Browser origins allowed besides `http://localhost`, `http://127.0.0.1` and `http://[::1]` on any
   * port (`https://app.example.com`). A request from any other origin is refused with 403.
   * @default []
   */
  corsOrigins?: readonly string[];
  /**
   * The bearer token every call must carry (`Authorization: Bearer …`; on `/api/changes` also a
   * `token` query parameter, for `EventSource`). Required when the server listens beyond loopback.
   */
  token?: string;
  /**
   * A file of tokens, one per person or device (`van-phone: 7f3a…`, a name, a colon, the token; `#`
   * starts a comment): each is accepted as the shared `token` is. It is read again when it changes
   * (checked at most once a second), so deleting a line revokes that token without a restart.
   * A token shorter than 16 characters is ignored (and said so once).
   */
  tokensFile?: string;
}

/** A refusal: the status, and the contract's error body. */
export interface Refusal {
  status: number;
  code: ApiErrorCode;
  message: string;
  headers?: Record<string, string>;
}

/** What the server decides about one request before the API sees it. */
export interface AccessPolicy {
  /** Why the request is refused, or undefined when it may go on. */
  check(req: IncomingMessage): Refusal | undefined;
  /** CORS headers for the request's origin: none unless it is allowed. */
  corsHeaders(req: IncomingMessage): Record<string, string>;
  /** Whether the request's origin may use CORS (for preflights). */
  originAllowed(req: IncomingMessage): boolean;
}

const loopbackNames = ['localhost', '127.0.0.1', '[::1]'];
const loopbackOrigin = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

/**
 * Which browser origins may call: `http://localhost`, `http://127.0.0.1` and `http://[::1]` on any
 * port, plus those named. `*` is refused: the API answers with data, which no site should read.
 * @example
 * const allowed = allowedOrigins(['https://app.example.com']);
 * allowed('http://localhost:5173'); // true
 */
export function allowedOrigins(named: string | readonly string[] | false | undefined): (origin: string | undefined) => boolean {
  if (named === false) return () => false;
  const list = typeof named === 'string' ? [named] : (named ?? []);
  if (list.some((o) => o.trim() === '*')) {
    throw new TypeError('CORS origin "*" is not allowed: any website could read and change the data. Name each origin that may call (https://app.example.com).');
  }
  const origins = new Set(list.map((o) => o.trim().replace(/\/+$/, '').toLowerCase()));
  return (origin) => {
    const lower = origin?.toLowerCase();
    return lower !== undefined && (loopbackOrigin.test(lower) || origins.has(lower));
  };
}

/**
 * The CORS headers of an answer to `origin`: `Access-Control-Allow-Origin` echoing it when allowed,
 * and always `Vary: Origin`.
 * @example
 * corsHeadersFor(allowedOrigins([]), 'http://localhost:5173', 'X-Total-Count');
 */
export function corsHeadersFor(allowed: (origin: string | undefined) => boolean, origin: string | undefined, exposeHeaders?: string): Record<string, string> {
  if (origin === undefined || !allowed(origin)) return { vary: 'Origin' };
  return { 'access-control-allow-origin': origin, ...(exposeHeaders ? { 'access-control-expose-headers': exposeHeaders } : {}), vary: 'Origin' };
}
const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const publicPaths = new Set([`${apiBasePath}/openapi.json`, `${apiBasePath}/docs`]);

/**
 * Whether an address is loopback only (`127.x`, `::1`, `localhost`).
 * @example
 * isLoopback('0.0.0.0'); // false
 */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Builds the policy of a server listening on `host:port`. */
export function createAccessPolicy(host: string, port: () => number, options: AccessOptions, exposeHeaders: string): AccessPolicy {
  const listenName = host.includes(':') ? `[${host}]` : host;
  const names = new Set([...loopbackNames, ...(host === '0.0.0.0' || host === '::' ? [] : [listenName.toLowerCase()])]);
  const exact = new Set<string>();
  for (const given of options.allowedHosts ?? []) {
    const value = given.trim().toLowerCase();
    if (/:\d+$/.test(value)) exact.add(value);
    else names.add(value);
  }
  const allowed = allowedOrigins(options.corsOrigins);
  const token = options.token ? Buffer.from(options.token) : undefined;
  const fileTokens = options.tokensFile ? tokensFrom(options.tokensFile) : undefined;
  const matches = (bytes: Buffer, wanted: Buffer) => bytes.length === wanted.length && timingSafeEqual(bytes, wanted);

  const originOf = (req: IncomingMessage) => (typeof req.headers.origin === 'string' ? req.headers.origin : undefined);
  const originAllowed = (req: IncomingMessage) => allowed(originOf(req));

  function hostAllowed(value: string | undefined): boolean {
    if (!value) return false;
    const lower = value.toLowerCase();
    if (exact.has(lower)) return true;
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(lower);
    if (!match) return false;
    const [, name = '', givenPort] = match;
    const portOk = givenPort === undefined ? port() === 80 : Number(givenPort) === port();
    return portOk && names.has(name);
  }

  function tokenOk(req: IncomingMessage, pathname: string, search: URLSearchParams): boolean {
    if (!token && !fileTokens) return true;
    const header = req.headers.authorization;
    let given = typeof header === 'string' && /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, '').trim() : undefined;
    // EventSource cannot send headers: the change feed alone takes the token as a query parameter.
    if (given === undefined && pathname === `${apiBasePath}${changeFeedPath}`) given = search.get('token') ?? undefined;
    if (given === undefined) return false;
    const bytes = Buffer.from(given);
    // Every token is compared, whichever matches: the time taken says nothing of which one.
    let ok = token !== undefined && matches(bytes, token);
    for (const device of fileTokens?.() ?? []) ok = matches(bytes, device) || ok;
    return ok;
  }

  return {
    originAllowed,
    corsHeaders: (req) => corsHeadersFor(allowed, originOf(req), exposeHeaders),
    check(req) {
      if (!hostAllowed(req.headers.host)) {
        return {
          status: 421,
          code: 'MISDIRECTED_REQUEST',
          message: `This server does not answer to the name ${JSON.stringify(req.headers.host ?? '')}. Call it as localhost or 127.0.0.1, or start it with --allowed-host <name>.`,
        };
      }
      const origin = originOf(req);
      if (origin !== undefined && !originAllowed(req)) {
        return {
          status: 403,
          code: 'ORIGIN_NOT_ALLOWED',
          message: `Pages from ${origin} may not call this server. Start it with --cors-origin ${origin} to allow them.`,
        };
      }
      const method = req.method ?? 'GET';
      // A preflight carries no credentials; it is answered (or refused) by the origin alone.
      if (method === 'OPTIONS' && req.headers['access-control-request-method']) return undefined;
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (!publicPaths.has(url.pathname) && !tokenOk(req, url.pathname, url.searchParams)) {
        return {
          status: 401,
          code: 'UNAUTHORIZED',
          message: req.headers.authorization
            ? 'The token is not the one this server was started with. Send Authorization: Bearer <token> with the token it printed at start.'
            : 'This server wants a token. Send Authorization: Bearer <token> with the token it printed at start (--token).',
          headers: { 'www-authenticate': 'Bearer realm="otto"' },
        };
      }
      if (writeMethods.has(method)) {
        const type = req.headers['content-type'];
        const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
        const json = typeof type === 'string' && /^application\/json\s*(;|$)/i.test(type.trim());
        if ((type !== undefined || hasBody) && !json) {
          return {
            status: 415,
            code: 'UNSUPPORTED_MEDIA_TYPE',
            message: `Writes must be sent as JSON with Content-Type: application/json${type ? `, not ${type}` : ''}. Nothing was changed.`,
          };
        }
      }
      return undefined;
    },
  };
}

/**
 * The tokens of a tokens file (`name: token` per line), read again when the file changes (its
 * modification time and size, looked at no more than once a second). A file that cannot be read
 * gives no tokens until it can: revoking by deleting it works too.
 * @example
 * const tokens = tokensFrom('/etc/otto/tokens'); tokens(); // [Buffer, …]
 */
export function tokensFrom(file: string): () => readonly Buffer[] {
  let checkedAt = 0;
  let stamp = '';
  let tokens: Buffer[] = [];
  const warned = new Set<string>();
  return () => {
    const now = Date.now();
    if (now - checkedAt < 1_000) return tokens;
    checkedAt = now;
    let seen = '';
    try {
      const stat = statSync(file);
      seen = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      tokens = [];
      stamp = '';
      return tokens;
    }
    if (seen === stamp) return tokens;
    stamp = seen;
    tokens = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const text = line.replace(/#.*$/, '').trim();
      if (!text) continue;
      const at = text.indexOf(':');
      const name = at >= 0 ? text.slice(0, at).trim() : '(unnamed)';
      const value = at >= 0 ? text.slice(at + 1).trim() : text;
      if (value.length < 16) {
        if (!warned.has(name)) console.warn(`The token of ${name} in ${file} is shorter than 16 characters: it is not accepted.`);
        warned.add(name);
        continue;
      }
      tokens.push(Buffer.from(value));
    }
    return tokens;
  };
}
