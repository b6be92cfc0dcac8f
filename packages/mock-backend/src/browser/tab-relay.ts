import type { Logger } from '../logger';
import { ApiError } from '../runtime/api-error';
import { startDbWorker, type DbWorkerClient } from './db-worker-client';
import {
  dbPortClosedType,
  isLongRunningRequest,
  longRequestTimeoutMs,
  startProgressTimer,
  dbPortType,
  errorMessage,
  movedAnswer,
  movedHeader,
  needDbPortType,
  relayErrorSerialized,
  type ServiceWorkerControlMessage,
  type SerializedError,
  safeToResend,
  type SerializedRequest,
  type SerializedResponse,
  type WorkerBackendInfo,
} from './protocol';
import type { TabMessage } from './tab-messages';
import type { BackendStatus } from './types';

export interface TabRelayOptions {
  createWorker: () => Worker;
  appVersion?: string | undefined;
  lockName: string;
  channelName: string;
  requestTimeoutMs: number;
  /** Hand the service worker a port straight to the DB worker (when this tab owns the database). */
  directPort: boolean;
  logger: Logger;
}

/** One tab's part in the group of tabs that share one database. */
export interface TabRelay {
  /** Undefined until the database is ready, here or in the owner tab. */
  readonly status: BackendStatus | undefined;
  /** Resolves once this tab can answer requests (it owns a ready database, or knows the owner that does). */
  readonly started: Promise<void>;
  subscribe(listener: (status: BackendStatus) => void): () => void;
  /** Answers a request from the database, wherever it is; never rejects, answers 503/504 JSON instead. */
  dispatch(request: SerializedRequest): Promise<SerializedResponse>;
  /** Runs a database operation in the owner tab. */
  call(op: DatabaseOp, bytes?: ArrayBuffer): Promise<ArrayBuffer | undefined>;
  close(): void;
}

type DatabaseOp = 'delete-database' | 'export-database' | 'restore-database';
type CallResult = { bytes?: ArrayBuffer; error?: SerializedError };

interface PendingRequest {
  request: SerializedRequest;
  /** Safe to send again to a new owner when the one it went to closed without answering. */
  idempotent: boolean;
  /** The owner tab it was sent to, if any. */
  sentTo?: string;
  settle(response: SerializedResponse): void;
}

const callTimeoutMs = 30_000;

/**
 * Elects one tab per origin to own the database: every tab asks for the same Web Lock and the
 * holder (for its whole life) runs the DB worker. The others relay their requests to it over a
 * BroadcastChannel, with ids and timeouts. When the owner closes, the lock passes to another tab,
 * which starts the worker (retrying while the old one's OPFS handles are released) and takes the
 * requests the old owner left unanswered.
 */
export function createTabRelay(options: TabRelayOptions): TabRelay {
  const { logger, requestTimeoutMs } = options;
  const tabId = crypto.randomUUID();
  const channel = new BroadcastChannel(options.channelName);
  const listeners = new Set<(status: BackendStatus) => void>();
  const pending = new Map<string, PendingRequest>();
  const calls = new Map<string, (result: CallResult) => void>();
  const lockAbort = new AbortController();
  let releaseLock = () => {};
  let nextId = 1;
  let closed = false;
  let status: BackendStatus | undefined;
  /** Set while this tab owns the database. */
  let worker: DbWorkerClient | undefined;
  let workerFailure: ApiError | undefined;
  /** The owner tab, when another tab owns the database. */
  let leaderId: string | undefined;
  let leaderFailure: ApiError | undefined;
  /**
   * When each owner (a tab id; this tab's own worker under this tab's id) last answered any tab
   * (Date.now()): an owner that keeps answering is busy, not gone, so a request waiting on it is
   * given more time. One that went silent, or crashed, times out as before.
   */
  const lastAnswerBy = new Map<string, number>();

  let markStarted!: () => void;
  let markFailed!: (error: Error) => void;
  const started = new Promise<void>((resolve, reject) => {
    markStarted = resolve;
    markFailed = reject;
  });
  started.catch(() => undefined);

  /** A different app version seen in another tab, kept in every status from then on. */
  let otherVersion: string | undefined;
  /** Set once a newer version was seen: this tab's code is older than the database's owner. */
  let outdated = false;
  let handingOver = false;

  function setStatus(base: BackendStatus): void {
    const next = { ...base, ...(otherVersion ? { otherVersion } : {}), ...(outdated ? { outdated } : {}) };
    // An unchanged status keeps its identity (React's useSyncExternalStore compares snapshots).
    if (
      status?.role === next.role &&
      status.storage === next.storage &&
      status.fallbackReason === next.fallbackReason &&
      status.otherVersion === next.otherVersion &&
      status.outdated === next.outdated
    ) {
      return;
    }
    status = next;
    for (const listener of listeners) listener(next);
  }

  function post(message: TabMessage): void {
    if (!closed) channel.postMessage(message);
  }

  // --- Requests ---------------------------------------------------------------------------------

  function dispatch(request: SerializedRequest): Promise<SerializedResponse> {
    const label = `${request.method} ${new URL(request.url).pathname}`;
    const timeoutMs = isLongRunningRequest(request.method, request.url) ? longRequestTimeoutMs : requestTimeoutMs;
    return new Promise((resolve) => {
      const id = `${tabId}:${nextId++}`;
      const cancel = startProgressTimer(timeoutMs, () => (entry.sentTo ? (lastAnswerBy.get(entry.sentTo) ?? 0) : 0), () => {
        entry.settle(
          relayErrorSerialized(
            504,
            'TIMEOUT',
            `The in-browser database did not answer ${label} within ${timeoutMs / 1000} seconds. Try again; if it keeps happening, reload the tab.`,
          ),
        );
      });
      const entry: PendingRequest = {
        request,
        idempotent: safeToResend(request),
        settle(response) {
          if (!pending.delete(id)) return;
          cancel();
          resolve(response);
        },
      };
      pending.set(id, entry);
      route(id, entry);
    });
  }

  function route(id: string, entry: PendingRequest): void {
    if (closed) return entry.settle(unavailable('The Otto backend in this tab was stopped. Reload the tab.'));
    if (worker) {
      if (workerFailure) return entry.settle(unavailable(workerFailure.message));
      entry.sentTo = tabId;
      void serveHere(entry.request).then((response) => {
        lastAnswerBy.set(tabId, Date.now());
        // The database moved to a newer tab while this request waited: it goes to the next owner.
        if (isMoved(response)) entry.sentTo = undefined;
        else entry.settle(response);
      });
      return;
    }
    if (leaderFailure) return entry.settle(unavailable(leaderFailure.message));
    if (leaderId) {
      entry.sentTo = leaderId;
      post({ type: 'request', id, from: tabId, to: leaderId, request: entry.request });
    }
    // Otherwise it waits for an owner to announce itself.
  }

  /** Sends what waits to the owner that just took over; what went to the old owner is resent only if safe. */
  function rerouteAll(newOwner: string): void {
    for (const [id, entry] of pending) {
      // Sent to the new owner already, or to this tab's own worker, whose answer settles it (or sends it on).
      if (entry.sentTo === newOwner || entry.sentTo === tabId) continue;
      if (entry.sentTo && !entry.idempotent) {
        entry.settle(
          unavailable(
            'The tab that owned the database closed before answering, so this change may or may not have been saved. Reload to check, then try again.',
          ),
        );
        continue;
      }
      route(id, entry);
    }
  }

  async function serveHere(request: SerializedRequest): Promise<SerializedResponse> {
    const owner = worker;
    try {
      if (!owner) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'This tab does not own the database.');
      await owner.ready;
      return await owner.fetch(request);
    } catch (error) {
      // A worker that stopped to hand the database over ran none of what it refused: the next owner will.
      if (handingOver) return movedAnswer;
      return unavailable(errorMessage(error));
    }
  }

  // --- Owning the database ----------------------------------------------------------------------

  void navigator.locks
    .request(options.lockName, { signal: lockAbort.signal }, async () => {
      if (closed) return;
      await becomeOwner();
      // Closed while the worker was starting: let the next tab have the lock now.
      if (closed) return;
      await new Promise<void>((resolve) => (releaseLock = resolve));
    })
    .catch((error: unknown) => {
      if (!closed) logger.error('Could not take part in the election of the tab that owns the database:', error);
    });

  async function becomeOwner(): Promise<void> {
    worker = startDbWorker(options.createWorker);
    leaderId = undefined;
    handDbPort();
    // The previous owner released the lock, so it is gone: what it left unanswered comes here.
    rerouteAll(tabId);
    try {
      const info = await worker.ready;
      if (closed) return;
      setStatus(leaderStatus(info));
      announce();
      markStarted();
    } catch (error) {
      workerFailure = error instanceof ApiError ? error : new ApiError(503, 'SERVICE_UNAVAILABLE', errorMessage(error));
      logger.error(workerFailure.message);
      announce();
      for (const [id, entry] of pending) route(id, entry);
      markFailed(workerFailure);
    }
  }

  function announce(): void {
    if (!worker) return;
    if (workerFailure) {
      // The store's code (when the database itself failed) lets every tab offer recovery.
      const storeCode = (workerFailure.cause as { storeCode?: unknown } | undefined)?.storeCode;
      post({ type: 'leader-failed', leaderId: tabId, error: { code: typeof storeCode === 'string' ? storeCode : workerFailure.code, message: workerFailure.message } });
    } else if (status?.role === 'leader') {
      const { storage, fallbackReason } = status;
      post({
        type: 'leader',
        leaderId: tabId,
        status: { storage, ...(fallbackReason ? { fallbackReason } : {}), ...(options.appVersion ? { appVersion: options.appVersion } : {}) },
      });
    }
  }

  // --- Between tabs -----------------------------------------------------------------------------

  channel.addEventListener('message', (event: MessageEvent<TabMessage>) => {
    const message = event.data;
    switch (message?.type) {
      case 'hello':
        noteVersion(message.appVersion);
        announce();
        return;
      case 'leader': {
        if (worker || message.leaderId === tabId) return;
        const changed = leaderId !== message.leaderId;
        leaderId = message.leaderId;
        leaderFailure = undefined;
        noteVersion(message.status.appVersion);
        const { appVersion: _ownerVersion, ...announced } = message.status;
        setStatus({ role: 'follower', ...announced });
        if (changed) rerouteAll(message.leaderId);
        markStarted();
        return;
      }
      case 'leader-failed':
        if (worker) return;
        leaderFailure = new ApiError(503, 'SERVICE_UNAVAILABLE', message.error.message, undefined, { cause: { storeCode: message.error.code } });
        for (const [id, entry] of pending) route(id, entry);
        markFailed(leaderFailure);
        return;
      case 'request':
        if (message.to !== tabId || !worker) return;
        void serveHere(message.request).then((response) =>
          post({ type: 'response', id: message.id, from: tabId, to: message.from, response }),
        );
        return;
      case 'response': {
        // The owner answering any tab is alive and working through its queue.
        lastAnswerBy.set(message.from, Date.now());
        if (message.to !== tabId) return;
        const entry = pending.get(message.id);
        // Not run by the owner (it is handing over): sent again when the next owner announces itself.
        if (entry && isMoved(message.response)) entry.sentTo = undefined;
        else entry?.settle(message.response);
        return;
      }
      case 'call':
        if (message.to !== tabId || !worker) return;
        void runHere(message.op, message.bytes).then((result) =>
          post({ type: 'result', id: message.id, to: message.from, ...result }),
        );
        return;
      case 'result':
        if (message.to === tabId) calls.get(message.id)?.(message);
        return;
    }
  });
  /**
   * Two versions of the app on one database: a newer build takes it over. An older tab stops
   * competing for ownership, hands the database over if it owns it, and says so in its status;
   * the owner's DB worker refuses its writes from then on (409 APP_OUTDATED).
   */
  function noteVersion(version: string | undefined): void {
    if (!version || !options.appVersion || version === options.appVersion || otherVersion === version) return;
    otherVersion = version;
    if (version > options.appVersion) {
      outdated = true;
      logger.warn(`Another tab runs a newer Otto (${version}); this one runs ${options.appVersion}. Reload to continue.`);
      void handOver();
    }
    if (status) setStatus(status);
  }

  /** Finishes what the DB worker has in flight, closes it and lets the lock go to a newer tab. */
  async function handOver(): Promise<void> {
    if (!worker) {
      // Not the owner: leave the queue for the lock, so that only newer tabs take it.
      lockAbort.abort();
      return;
    }
    if (handingOver) return;
    handingOver = true;
    const stopping = worker;
    await stopping.stop().catch(() => undefined);
    postToServiceWorker({ type: dbPortClosedType, owner: tabId, stopped: true });
    stopping.terminate();
    worker = undefined;
    leaderId = undefined;
    if (status) setStatus({ ...status, role: 'follower' });
    releaseLock();
  }

  // --- The service worker's port to the DB worker -----------------------------------------------

  function postToServiceWorker(message: ServiceWorkerControlMessage, transfer: Transferable[] = []): void {
    const controller = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : undefined;
    controller?.postMessage(message, transfer);
  }

  /** Gives the service worker a port straight to this tab's DB worker (requests then skip every tab). */
  function handDbPort(): void {
    if (!options.directPort || !worker || workerFailure || handingOver || closed) return;
    if (!navigator.serviceWorker?.controller) return;
    const { port1, port2 } = new MessageChannel();
    worker.connectPort(port1);
    postToServiceWorker({ type: dbPortType, owner: tabId }, [port2]);
  }

  const container = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
  function onServiceWorkerMessage(event: MessageEvent): void {
    if ((event.data as { type?: unknown } | null)?.type === needDbPortType) handDbPort();
  }
  container?.addEventListener('message', onServiceWorkerMessage);
  container?.addEventListener('controllerchange', handDbPort);
  // A closing owner tab takes its DB worker with it: the service worker stops using its port at once,
  // and the worker finishes what it has, closes the database and ends. (WebKit keeps the worker of
  // a page that was left running for seconds, holding the database: the next page waited on it.)
  let stoppedOnHide = false;
  function onPageHide(): void {
    if (!worker || handingOver) return;
    postToServiceWorker({ type: dbPortClosedType, owner: tabId });
    const leaving = worker;
    stoppedOnHide = true;
    void leaving.stop().catch(() => undefined).finally(() => leaving.terminate());
  }
  // Back from the back/forward cache with its database given up: start again.
  function onPageShow(event: PageTransitionEvent): void {
    if (event.persisted && stoppedOnHide) location.reload();
  }
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
  }

  post({ type: 'hello', from: tabId, ...(options.appVersion ? { appVersion: options.appVersion } : {}) });

  async function runHere(op: DatabaseOp, bytes?: ArrayBuffer): Promise<CallResult> {
    try {
      if (!worker) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'This tab does not own the database.');
      await worker.ready;
      if (op === 'export-database') return { bytes: await worker.exportDatabase() };
      const info = op === 'restore-database' ? await worker.restoreDatabase(bytes ?? new ArrayBuffer(0)) : await worker.deleteDatabase();
      setStatus(leaderStatus(info));
      announce();
      return {};
    } catch (error) {
      return { error: { code: 'SERVICE_UNAVAILABLE', message: errorMessage(error) } };
    }
  }

  function call(op: DatabaseOp, bytes?: ArrayBuffer): Promise<ArrayBuffer | undefined> {
    return new Promise((resolve, reject) => {
      const settle = (result: CallResult) => {
        if (result.error) reject(new ApiError(503, 'SERVICE_UNAVAILABLE', result.error.message));
        else resolve(result.bytes);
      };
      if (worker) return void runHere(op, bytes).then(settle);
      if (!leaderId) {
        return reject(new ApiError(503, 'SERVICE_UNAVAILABLE', 'No tab owns the database right now. Try again in a moment.'));
      }
      const id = `${tabId}:${nextId++}`;
      const timer = setTimeout(() => {
        calls.delete(id);
        reject(new ApiError(504, 'TIMEOUT', `The tab that owns the database did not finish ${op} in time.`));
      }, callTimeoutMs);
      calls.set(id, (result) => {
        calls.delete(id);
        clearTimeout(timer);
        settle(result);
      });
      post({ type: 'call', id, from: tabId, to: leaderId, op, ...(bytes ? { bytes } : {}) });
    });
  }

  return {
    get status() {
      return status;
    },
    started,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch,
    call,
    close() {
      if (closed) return;
      closed = true;
      container?.removeEventListener('message', onServiceWorkerMessage);
      container?.removeEventListener('controllerchange', handDbPort);
      if (typeof window !== 'undefined') {
        window.removeEventListener('pagehide', onPageHide);
        window.removeEventListener('pageshow', onPageShow);
      }
      if (worker) postToServiceWorker({ type: dbPortClosedType, owner: tabId });
      // End the worker before releasing the lock, so that the next owner finds the OPFS files free sooner.
      worker?.terminate();
      lockAbort.abort();
      releaseLock();
      for (const entry of pending.values()) entry.settle(unavailable('The Otto backend in this tab was stopped.'));
      channel.close();
      listeners.clear();
    },
  };
}

function leaderStatus(info: WorkerBackendInfo): BackendStatus {
  return { role: 'leader', storage: info.storage, ...(info.fallbackReason ? { fallbackReason: info.fallbackReason } : {}) };
}

function isMoved(response: SerializedResponse): boolean {
  return response.headers.some(([name]) => name.toLowerCase() === movedHeader);
}

function unavailable(message: string): SerializedResponse {
  return relayErrorSerialized(503, 'SERVICE_UNAVAILABLE', message);
}
