import { createLogger } from '../logger';
import { ApiError } from '../runtime/api-error';
import { controlPage } from './control-page';
import { startDbWorker, type DbWorkerClient } from './db-worker-client';
import {
  deserializeResponse,
  errorMessage,
  initPortType,
  relayErrorSerialized,
  serializeRequest,
  transferablesOf,
  type PortMessage,
  type SerializedError,
  type SerializedRequest,
  type SerializedResponse,
  type ServiceWorkerControlMessage,
} from './protocol';
import type { LeaderAnnouncement, TabMessage } from './tab-messages';
import type { BackendStatus, BrowserBackend, BrowserBackendOptions } from './types';

interface PendingRequest {
  request: SerializedRequest;
  /** Safe to send again to a new owner when the one it went to closed without answering. */
  idempotent: boolean;
  /** The owner tab it was sent to, if any. */
  sentTo?: string;
  settle(response: SerializedResponse): void;
}

interface PendingCall {
  settle(result: { bytes?: ArrayBuffer; error?: SerializedError }): void;
}

const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT']);
const callTimeoutMs = 30_000;
const portHandshakeTimeoutMs = 3_000;
const keptPorts = 4;

/**
 * Starts Otto's in-browser backend in this tab and resolves once `/api/*` requests are answered:
 * registers the service worker and waits until it controls the page (claiming it after a hard
 * reload), elects one tab per origin to own the database (Web Lock), starts the DB worker there,
 * and relays this tab's requests to the owner. When the owner tab closes, another tab takes over.
 * @example
 * const backend = await startBrowserBackend({
 *   serviceWorkerUrl: '/otto-sw.js',
 *   createWorker: () => new Worker(new URL('./db.worker.ts', import.meta.url), { type: 'module' }),
 * });
 * const res = await fetch('/api/customers'); // answered by the database in this browser
 */
export async function startBrowserBackend(options: BrowserBackendOptions): Promise<BrowserBackend> {
  assertSupported();
  const logger = options.logger ?? createLogger();
  const requestTimeoutMs = options.requestTimeoutMs ?? 8_000;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const tabId = crypto.randomUUID();
  const container = navigator.serviceWorker;
  const channel = new BroadcastChannel(options.channelName ?? 'otto-backend');
  const listeners = new Set<(status: BackendStatus) => void>();
  const pending = new Map<string, PendingRequest>();
  const calls = new Map<string, PendingCall>();
  const ports: MessagePort[] = [];
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

  let backendReady!: () => void;
  let startFailed!: (error: Error) => void;
  const backendStarted = new Promise<void>((resolve, reject) => {
    backendReady = resolve;
    startFailed = reject;
  });
  backendStarted.catch(() => undefined);

  function setStatus(next: BackendStatus): void {
    status = next;
    for (const listener of listeners) listener(next);
  }

  function post(message: TabMessage): void {
    if (!closed) channel.postMessage(message);
  }

  // --- Requests: from the service worker port, or from backend.fetch --------------------------

  function dispatch(request: SerializedRequest): Promise<SerializedResponse> {
    const label = `${request.method} ${new URL(request.url).pathname}`;
    return new Promise((resolve) => {
      const id = `${tabId}:${nextId++}`;
      const timer = setTimeout(() => {
        entry.settle(
          relayErrorSerialized(
            504,
            'TIMEOUT',
            `The in-browser database did not answer ${label} within ${requestTimeoutMs / 1000} seconds. Try again; if it keeps happening, reload the tab.`,
          ),
        );
      }, requestTimeoutMs);
      const entry: PendingRequest = {
        request,
        idempotent: idempotentMethods.has(request.method.toUpperCase()),
        settle(response) {
          if (!pending.delete(id)) return;
          clearTimeout(timer);
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
      void serveHere(entry.request).then((response) => entry.settle(response));
      return;
    }
    if (leaderFailure) return entry.settle(unavailable(leaderFailure.message));
    if (leaderId) {
      entry.sentTo = leaderId;
      post({ type: 'request', id, from: tabId, to: leaderId, request: entry.request });
    }
    // Otherwise it waits for an owner to announce itself (see 'leader' below).
  }

  /** Sends what is waiting to the owner that just took over; what went to the old owner is resent only if safe. */
  function rerouteAll(newOwner: string): void {
    for (const [id, entry] of pending) {
      if (entry.sentTo === newOwner) continue;
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
    const db = worker;
    try {
      if (!db) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'This tab does not own the database.');
      await db.ready;
      return await db.fetch(request);
    } catch (error) {
      return unavailable(errorMessage(error));
    }
  }

  // --- Owning the database: one tab per origin holds the lock for its whole life ----------------

  void navigator.locks
    .request(options.lockName ?? 'otto-db-owner', { signal: lockAbort.signal }, async () => {
      if (closed) return;
      await becomeOwner();
      await new Promise<void>((resolve) => (releaseLock = resolve));
    })
    .catch((error: unknown) => {
      if (!closed) logger.error('Could not take part in the database owner election:', error);
    });

  async function becomeOwner(): Promise<void> {
    const db = startDbWorker(options.createWorker);
    worker = db;
    leaderId = undefined;
    // The previous owner is gone (it released the lock): what it did not answer comes here.
    rerouteAll(tabId);
    try {
      const info = await db.ready;
      if (closed) return;
      const announcement: LeaderAnnouncement = {
        storage: info.storage,
        ...(info.fallbackReason ? { fallbackReason: info.fallbackReason } : {}),
      };
      setStatus({ role: 'leader', ...announcement });
      post({ type: 'leader', leaderId: tabId, status: announcement });
      backendReady();
    } catch (error) {
      workerFailure =
        error instanceof ApiError ? error : new ApiError(503, 'SERVICE_UNAVAILABLE', errorMessage(error));
      logger.error(workerFailure.message);
      post({ type: 'leader-failed', leaderId: tabId, error: { code: workerFailure.code, message: workerFailure.message } });
      for (const [id, entry] of pending) route(id, entry);
      startFailed(workerFailure);
    }
  }

  function announce(): void {
    if (!worker || !status || status.role !== 'leader') {
      if (worker && workerFailure) {
        post({ type: 'leader-failed', leaderId: tabId, error: { code: workerFailure.code, message: workerFailure.message } });
      }
      return;
    }
    const { storage, fallbackReason } = status;
    post({ type: 'leader', leaderId: tabId, status: { storage, ...(fallbackReason ? { fallbackReason } : {}) } });
  }

  // --- The BroadcastChannel between tabs --------------------------------------------------------

  channel.addEventListener('message', (event: MessageEvent<TabMessage>) => {
    const message = event.data;
    switch (message?.type) {
      case 'hello':
        announce();
        return;
      case 'leader': {
        if (worker || message.leaderId === tabId) return;
        const changed = leaderId !== message.leaderId;
        leaderId = message.leaderId;
        leaderFailure = undefined;
        setStatus({ role: 'follower', ...message.status });
        if (changed) rerouteAll(message.leaderId);
        backendReady();
        return;
      }
      case 'leader-failed':
        if (worker) return;
        leaderFailure = new ApiError(503, 'SERVICE_UNAVAILABLE', message.error.message);
        for (const [id, entry] of pending) route(id, entry);
        startFailed(leaderFailure);
        return;
      case 'request':
        if (message.to !== tabId || !worker) return;
        void serveHere(message.request).then((response) =>
          post({ type: 'response', id: message.id, to: message.from, response }),
        );
        return;
      case 'response':
        if (message.to === tabId) pending.get(message.id)?.settle(message.response);
        return;
      case 'call':
        if (message.to !== tabId || !worker) return;
        void runCall(message.op).then((result) => post({ type: 'result', id: message.id, to: message.from, ...result }));
        return;
      case 'result':
        if (message.to === tabId) calls.get(message.id)?.settle(message);
        return;
    }
  });

  async function runCall(op: 'delete-database' | 'export-database'): Promise<{ bytes?: ArrayBuffer; error?: SerializedError }> {
    try {
      if (!worker) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'This tab does not own the database.');
      await worker.ready;
      if (op === 'export-database') return { bytes: await worker.exportDatabase() };
      const info = await worker.deleteDatabase();
      setStatus({
        role: 'leader',
        storage: info.storage,
        ...(info.fallbackReason ? { fallbackReason: info.fallbackReason } : {}),
      });
      announce();
      return {};
    } catch (error) {
      return { error: { code: 'SERVICE_UNAVAILABLE', message: errorMessage(error) } };
    }
  }

  /** Runs a database operation in the owner tab, here or in another tab. */
  function call(op: 'delete-database' | 'export-database'): Promise<ArrayBuffer | undefined> {
    return new Promise((resolve, reject) => {
      const settleWith = (result: { bytes?: ArrayBuffer; error?: SerializedError }) => {
        if (result.error) reject(new ApiError(503, 'SERVICE_UNAVAILABLE', result.error.message));
        else resolve(result.bytes);
      };
      if (worker) {
        void runCall(op).then(settleWith);
        return;
      }
      if (!leaderId) {
        reject(new ApiError(503, 'SERVICE_UNAVAILABLE', 'No tab owns the database right now. Try again in a moment.'));
        return;
      }
      const id = `${tabId}:${nextId++}`;
      const timer = setTimeout(() => {
        calls.delete(id);
        reject(new ApiError(504, 'TIMEOUT', `The tab that owns the database did not finish ${op} in time.`));
      }, callTimeoutMs);
      calls.set(id, {
        settle(result) {
          calls.delete(id);
          clearTimeout(timer);
          settleWith(result);
        },
      });
      post({ type: 'call', id, from: tabId, to: leaderId, op });
    });
  }

  // --- The service worker: it asks for a port (INIT_PORT) whenever it has none for this tab -----

  function adoptPort(port: MessagePort): void {
    port.addEventListener('message', (event: MessageEvent<PortMessage>) => {
      const message = event.data;
      if (message?.type !== 'REQUEST') return;
      void dispatch(message.request).then((response) =>
        port.postMessage({ type: 'RESPONSE', id: message.id, response } satisfies PortMessage, transferablesOf(response)),
      );
    });
    port.start();
    ports.push(port);
    // A stopped service worker never uses its old ports again.
    while (ports.length > keptPorts) ports.shift()?.close();
  }

  function onServiceWorkerMessage(event: MessageEvent): void {
    const port = event.ports[0];
    if ((event.data as { type?: unknown } | null)?.type !== initPortType || !port) return;
    adoptPort(port);
    port.postMessage({ type: 'PORT_READY' } satisfies PortMessage);
  }
  container.addEventListener('message', onServiceWorkerMessage);
  container.startMessages();

  /** Gives the controlling worker a port now, so the first request needs no handshake. */
  function connect(controller: ServiceWorker): Promise<void> {
    const { port1, port2 } = new MessageChannel();
    const acknowledged = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ApiError(503, 'SERVICE_UNAVAILABLE', 'The Otto service worker did not answer. Reload the page.')),
        portHandshakeTimeoutMs,
      );
      port1.addEventListener('message', function onReady(event: MessageEvent<PortMessage>) {
        if (event.data?.type !== 'PORT_READY') return;
        port1.removeEventListener('message', onReady);
        clearTimeout(timer);
        resolve();
      });
    });
    adoptPort(port1);
    controller.postMessage({ type: initPortType } satisfies ServiceWorkerControlMessage, [port2]);
    return acknowledged;
  }

  function onControllerChange(): void {
    if (container.controller && !closed) connect(container.controller).catch(() => undefined);
  }

  // --- Start-up ---------------------------------------------------------------------------------

  const backend: BrowserBackend = {
    get status() {
      if (!status) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The Otto backend has not started yet.');
      return status;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async fetch(request) {
      return deserializeResponse(await dispatch(await serializeRequest(request)));
    },
    async deleteDatabase() {
      await call('delete-database');
    },
    async exportDatabase() {
      return new Uint8Array((await call('export-database')) ?? new ArrayBuffer(0));
    },
    close() {
      if (closed) return;
      closed = true;
      worker?.terminate();
      lockAbort.abort();
      releaseLock();
      container.removeEventListener('message', onServiceWorkerMessage);
      container.removeEventListener('controllerchange', onControllerChange);
      for (const entry of pending.values()) entry.settle(unavailable('The Otto backend in this tab was stopped.'));
      for (const port of ports.splice(0)) port.close();
      channel.close();
      listeners.clear();
    },
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    post({ type: 'hello', from: tabId });
    const started = (async () => {
      const controller = await controlPage({
        url: options.serviceWorkerUrl,
        scope: options.scope ?? '/',
        claimTimeoutMs: options.claimTimeoutMs ?? 4_000,
      });
      container.addEventListener('controllerchange', onControllerChange);
      await Promise.all([connect(controller), backendStarted]);
    })();
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ApiError(
              503,
              'SERVICE_UNAVAILABLE',
              `Otto's in-browser database did not start within ${startTimeoutMs / 1000} seconds. Reload the page to try again.`,
            ),
          ),
        startTimeoutMs,
      );
    });
    await Promise.race([started, timedOut]);
    return backend;
  } catch (error) {
    backend.close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function unavailable(message: string): SerializedResponse {
  return relayErrorSerialized(503, 'SERVICE_UNAVAILABLE', message);
}

function assertSupported(): void {
  const missing = [
    typeof navigator === 'undefined' || !('serviceWorker' in navigator) ? 'service workers' : undefined,
    typeof navigator === 'undefined' || !('locks' in navigator) ? 'Web Locks' : undefined,
    typeof BroadcastChannel === 'undefined' ? 'BroadcastChannel' : undefined,
    typeof Worker === 'undefined' ? 'Web Workers' : undefined,
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new ApiError(
      503,
      'SERVICE_UNAVAILABLE',
      `This browser cannot run Otto's in-browser database: it lacks ${missing.join(', ')}${
        typeof window !== 'undefined' && !window.isSecureContext ? ' (the page is not served over HTTPS or from localhost)' : ''
      }. Open Otto in a current Chrome, Edge, Firefox or Safari.`,
    );
  }
}
