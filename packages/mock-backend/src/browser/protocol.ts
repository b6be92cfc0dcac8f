// The messages between the service worker, the tabs and the DB worker. This module is imported by
// the service worker script, so it must stay free of dependencies (but the request id header's
// name, which its helpers in protocol-serialization.ts import).
export {
  answerRequestsOn,
  deserializeRequest,
  deserializeResponse,
  errorMessage,
  networkErrorAnswer,
  networkErrorHeader,
  relayErrorResponse,
  relayErrorSerialized,
  safeToResend,
  serializeRequest,
  serializeResponse,
  transferablesOf,
} from './protocol-serialization';

/**
 * Paths the service worker relays (spec section 7: base path /api).
 * @example
 * if (new URL(request.url).pathname.startsWith(apiPathPrefix)) relay(request);
 */
export const apiPathPrefix = '/api/';

/**
 * The spec's init-port message: whoever creates a MessageChannel sends this with one end of it.
 * The service worker sends it to a tab when it has no port for that tab (it may have been stopped
 * and lost its ports); a tab sends it to its controller proactively. The receiver answers on the
 * port with `PORT_READY`.
 * @example
 * navigator.serviceWorker.controller?.postMessage({ type: initPortType }, [channel.port2]);
 */
export const initPortType = 'INIT_PORT';
/** Sent by a tab to an active but non-controlling service worker: "call clients.claim()". */
export const claimClientsType = 'CLAIM_CLIENTS';
/**
 * Sent by the tab that owns the database to its service worker, with a port straight to its DB
 * worker (and `owner`, the tab's id): requests then skip every tab's main thread.
 */
export const dbPortType = 'DB_PORT';
/** Sent by the owner tab when its DB worker stops (the tab closes or hands the database over). */
export const dbPortClosedType = 'DB_PORT_CLOSED';
/** Sent by a page to its service worker when it is being left (pagehide): what it sent and no tab has yet is dropped. */
export const pageGoneType = 'PAGE_GONE';
/** Sent by the service worker to the tabs when it has no port to the DB worker (it was restarted). */
export const needDbPortType = 'NEED_DB_PORT';
/**
 * Sent by a tab to a waiting service worker (a new version): "activate now". A service worker of
 * your own handles it to let a page apply an update when the person chooses to.
 * @example
 * self.addEventListener('message', (e) => { if (e.data?.type === skipWaitingType) void self.skipWaiting(); });
 */
export const skipWaitingType = 'SKIP_WAITING';
/**
 * Header of an answer meaning "not run here: the database is moving to another tab"; the
 * service worker sends the request again once the next owner's port arrives.
 */
export const movedHeader = 'x-otto-moved';

/** What the service worker says of a request it sends through a tab: by when an owner must have it, whether it was on its way somewhere before. */
export interface Relayed {
  deadline?: number | undefined;
  tried?: boolean | undefined;
}

/** Whether an answer says "moved": not run here, and safe to send to the next owner. */
export function isMoved(response: SerializedResponse): boolean {
  return response.headers.some(([name]) => name.toLowerCase() === movedHeader);
}
/**
 * Request header naming the app version (build) that sent it. The DB worker refuses writes from
 * a build older than its own with 409 `APP_OUTDATED`.
 * @example
 * fetch('/api/customers', { method: 'POST', headers: { [appVersionHeader]: buildId, 'content-type': 'application/json' }, body });
 */
export const appVersionHeader = 'x-otto-app-version';

/**
 * A request as it crosses a MessagePort or BroadcastChannel.
 * @example
 * const request: SerializedRequest = { url: 'http://localhost/api/customers', method: 'GET', headers: [], body: null };
 */
export interface SerializedRequest {
  url: string;
  method: string;
  headers: [string, string][];
  /** null for GET and HEAD; transferred (not copied) over MessagePorts. */
  body: ArrayBuffer | null;
}

/**
 * A response as it crosses a MessagePort or BroadcastChannel.
 * @example
 * const response: SerializedResponse = { status: 404, statusText: '', headers: [['content-type', 'text/plain']], body: null };
 */
export interface SerializedResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: ArrayBuffer | null;
}

/**
 * Messages on the MessagePort between the service worker and one tab.
 * @example
 * port.onmessage = (event: MessageEvent<PortMessage>) => {
 *   if (event.data.type === 'REQUEST') answer(event.data.id, event.data.request);
 * };
 */
export type PortMessage =
  /** `version`: the @otto/mock-backend version the service worker was built from (absent in older versions). */
  | { type: 'PORT_READY'; version?: string }
  /** `deadline`: by when an owner must have it (a tab that relays it answers 503, unrun, past it). */
  | { type: 'REQUEST'; id: number; request: SerializedRequest; deadline?: number; tried?: boolean }
  | { type: 'RESPONSE'; id: number; response: SerializedResponse };

/** Messages posted on `navigator.serviceWorker` / to the service worker itself. */
export type ServiceWorkerControlMessage =
  | { type: typeof initPortType }
  | { type: typeof claimClientsType }
  | { type: typeof skipWaitingType }
  | { type: typeof dbPortType; owner: string }
  | { type: typeof pageGoneType }
  /** `stopped`: the DB worker finished what it had and closed, so nothing still on its port was run. */
  | { type: typeof dbPortClosedType; owner: string; stopped?: boolean };

/**
 * What the DB worker reports about the database it serves.
 * @example
 * const info: WorkerBackendInfo = await serveMockApiInWorker();
 * console.log(info.storage, info.schemaVersion);
 */
export interface WorkerBackendInfo {
  storage: 'opfs' | 'indexeddb' | 'memory';
  /** Why the database is in memory although OPFS was asked for. */
  fallbackReason?: string;
  filename: string;
  sqliteVersion: string;
  schemaVersion: number;
  /** Customers created by seeding at this start (0 when the database already had data). */
  seeded: number;
}

/** A failure as it crosses a thread boundary. */
export interface SerializedError {
  code: string;
  message: string;
}

/** Page → DB worker. */
export type WorkerRequestMessage =
  | { type: 'request'; id: number; request: SerializedRequest }
  | { type: 'delete-database'; id: number }
  | { type: 'export-database'; id: number }
  | { type: 'restore-database'; id: number; backup: Blob }
  /** Open the database now (a worker started with `waitForOpen` waits for it; others ignore it). */
  | { type: 'open' }
  /**
   * `sqlite3.wasm` compiled by the page (`postCompiledSqlite`), for a worker served with
   * `compiledSqliteFromPage`; without `module` the page could not compile it.
   */
  | { type: 'sqlite-wasm'; module?: WebAssembly.Module }
  /**
   * The first-start database file fetched by the page (`postSeedFile`), for a worker served with
   * `seedFileFromPage`; without `bytes` the page fetched none.
   */
  | { type: 'seed-file'; bytes?: ArrayBuffer }
  /**
   * Posted by `postSeedFile` at once, before the file: the moment a first start's dates move to,
   * when the page chose it (it may show them before the database exists); none without `moment`.
   */
  | { type: 'seed-moment'; moment?: number }
  /** A port for the service worker (PortMessage REQUEST/RESPONSE), transferred with the message. */
  | { type: 'connect-port' }
  /** Finish what is in flight, close the database, answer `stopped`; later requests are answered "moved". */
  | { type: 'stop'; id: number }
  /** Recovery, also when the database could not be opened: the file's bytes as stored, unchecked. */
  | { type: 'read-database-file'; id: number }
  /**
   * Recovery: keep the file aside (when `keepAside`), put `bytes` (a checked backup) or nothing in
   * its place, and open it; a fresh database is seeded, a restored one is not.
   */
  | { type: 'replace-database-file'; id: number; backup?: Blob; keepAside: boolean };

/** DB worker → page. */
export type WorkerResponseMessage =
  | { type: 'ready'; info: WorkerBackendInfo }
  | { type: 'failed'; error: SerializedError }
  | { type: 'response'; id: number; response: SerializedResponse }
  | { type: 'deleted'; id: number; info: WorkerBackendInfo }
  | { type: 'exported'; id: number; bytes: ArrayBuffer }
  | { type: 'restored'; id: number; info: WorkerBackendInfo }
  | { type: 'stopped'; id: number }
  | { type: 'database-file'; id: number; bytes: ArrayBuffer | null }
  | { type: 'replaced'; id: number; info: WorkerBackendInfo; setAside?: SetAsideFileInfo }
  | { type: 'error'; id: number; error: SerializedError }
  /** Something wrong that fails no request, for the page's console (where tests and people look). */
  | { type: 'problem'; message: string };

/**
 * A database file kept aside by a recovery (`replace-database-file`), in OPFS under a dated name.
 * @example
 * const kept: SetAsideFileInfo = { name: 'otto-2026-11-23T17-30-05.sqlite3', size: 450560, lastModified: 1795000000000 };
 */
export interface SetAsideFileInfo {
  name: string;
  size: number;
  lastModified: number;
}

/**
 * The answer to a request that was not run because the database is moving to another tab (its
 * worker stopped first): safe to send again, to the next owner.
 */
export const movedAnswer: SerializedResponse = {
  status: 503,
  statusText: 'Service Unavailable',
  headers: [
    [movedHeader, '1'],
    ['content-type', 'application/json; charset=utf-8'],
  ],
  body: null,
};

/**
 * How long the relays wait for a long-running call (`longRunning` in the contract's route table:
 * an import of many rows and its undo), in milliseconds; the contract's `limits.longRequestTimeoutMs`.
 */
export const longRequestTimeoutMs = 120_000;

/**
 * True for the calls the contract marks `longRunning` (a test keeps the two in step). Kept free of
 * the contract's schemas: the service worker ships without zod.
 */
export function isLongRunningRequest(method: string, url: string): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  let path = url;
  try {
    path = new URL(url, 'http://localhost').pathname;
  } catch {
    return false;
  }
  return /^\/api\/(?:customers\/import|jobs\/import|imports\/last\/undo|sync\/push)$/.test(path);
}

/** The words of a refusal (a 5xx answer's JSON `message`), for the host's machines; undefined for any other answer. */
export function failureOf(response: SerializedResponse): { failure?: string } {
  if (response.status < 500) return {};
  try {
    const body = JSON.parse(new TextDecoder().decode(response.body ?? new ArrayBuffer(0))) as { message?: unknown };
    if (typeof body.message === 'string') return { failure: body.message };
  } catch {
    // Not JSON: the status says it.
  }
  return { failure: response.statusText || `status ${response.status}` };
}
