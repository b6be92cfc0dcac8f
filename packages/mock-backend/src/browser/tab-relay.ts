// One tab's driver of the host protocol. Its job: take part in the election of the tab that owns
// the database (a Web Lock), run the DB worker while this tab owns it, and relay this tab's
// requests (its own, and those the service worker sends through it) to whichever tab owns it
// now, over a BroadcastChannel. Every decision is made by the pure machine in host/tab-core.ts;
// this file turns browser events into its events and carries out its effects.
import type { Logger } from '../logger';
import { ApiError } from '../runtime/api-error';
import { callTimeoutMs } from './host/budgets';
import { createTabState, tabHello, tabStep, type HostError, type TabEffect, type TabEvent, type TabWire } from './host/tab-core';
import { startDbWorker, type DbWorkerClient } from './db-worker-client';
import {
  dbPortClosedType,
  dbPortType,
  errorMessage,
  isLongRunningRequest,
  movedAnswer,
  movedHeader,
  needDbPortType,
  relayErrorSerialized,
  safeToResend,
  type SerializedError,
  type SerializedRequest,
  type SerializedResponse,
  type ServiceWorkerControlMessage,
  type WorkerBackendInfo,
} from './protocol';
import type { TabMessage } from './tab-messages';
import type { BackendStatus } from './types';

export interface TabRelayOptions {
  createWorker: () => Worker;
  appVersion?: string | undefined;
  lockName: string;
  channelName: string;
  /** How long this tab's own requests wait for an owner before 503. */
  ownerWaitMs?: number | undefined;
  /** Hand the service worker a port straight to the DB worker (when this tab owns the database). */
  directPort: boolean;
  /** Give the service worker a port to this tab (INIT_PORT), when it asks for a route and this tab is no owner. */
  offerPort?: () => void;
  logger: Logger;
}

/** One tab's part in the group of tabs that share one database. */
export interface TabRelay {
  /** Undefined until the database is ready, here or in the owner tab. */
  readonly status: BackendStatus | undefined;
  /** Resolves once this tab can answer requests (it owns a ready database, or knows the owner that does). */
  readonly started: Promise<void>;
  subscribe(listener: (status: BackendStatus) => void): () => void;
  /** Answers a request from the database, wherever it is; never rejects. `deadline`: by when an owner must have it. */
  dispatch(request: SerializedRequest, deadline?: number): Promise<SerializedResponse>;
  /** Runs a database operation in the owner tab. */
  call(op: DatabaseOp, bytes?: ArrayBuffer): Promise<ArrayBuffer | undefined>;
  close(): void;
}

type DatabaseOp = 'delete-database' | 'export-database' | 'restore-database';
type CallResult = { bytes?: ArrayBuffer; error?: SerializedError };

/**
 * Elects one tab per origin to own the database and relays every other tab's requests to it.
 * When the owner closes, the lock passes to another tab, which starts the worker and takes what
 * the old owner left unanswered; a newer version of the app takes the database over.
 */
export function createTabRelay(options: TabRelayOptions): TabRelay {
  const { logger } = options;
  const state = createTabState(crypto.randomUUID(), options.appVersion);
  const channel = new BroadcastChannel(options.channelName);
  const listeners = new Set<(status: BackendStatus) => void>();
  /** Request bodies by the machine's key: this tab's own ids, and `from|id` for other tabs'. */
  const bodies = new Map<string, SerializedRequest>();
  const waiting = new Map<string, (response: SerializedResponse) => void>();
  const calls = new Map<string, (result: CallResult) => void>();
  const lockAbort = new AbortController();
  let releaseLock = () => {};
  let worker: DbWorkerClient | undefined;
  let status: BackendStatus | undefined;
  let nextId = 1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let markStarted!: () => void;
  let markFailed!: (error: Error) => void;
  const started = new Promise<void>((resolve, reject) => {
    markStarted = resolve;
    markFailed = reject;
  });
  started.catch(() => undefined);
  const container = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;

  function step(event: TabEvent<SerializedResponse>): void {
    for (const effect of tabStep(state, event)) carryOut(effect);
  }
  const now = () => Date.now();

  function carryOut(effect: TabEffect<SerializedResponse>): void {
    switch (effect.type) {
      case 'post':
        return post(effect.message, effect.payload);
      case 'start-worker': {
        const starting = startDbWorker(options.createWorker);
        worker = starting;
        starting.ready.then(
          (info) => worker === starting && step({ type: 'worker-ready', now: now(), info: infoOf(info) }),
          (error: unknown) => worker === starting && step({ type: 'worker-failed', now: now(), error: hostError(error) }),
        );
        return;
      }
      case 'stop-worker': {
        const stopping = worker;
        void (stopping?.stop() ?? Promise.resolve()).catch(() => undefined).then(() => step({ type: 'worker-stopped', now: now() }));
        return;
      }
      case 'terminate-worker':
        worker?.terminate();
        worker = undefined;
        return;
      case 'release-lock':
        return releaseLock();
      case 'leave-lock-queue':
        return lockAbort.abort();
      case 'serve':
        return serve(effect.key);
      case 'settle':
        return answer(effect.id, effect.response);
      case 'refuse':
        return answer(effect.id, effect.moved ? movedAnswer : relayErrorSerialized(effect.status, effect.code, effect.message));
      case 'hand-db-port': {
        const controller = container?.controller;
        if (!options.directPort || !worker || !controller) return;
        const { port1, port2 } = new MessageChannel();
        worker.connectPort(port1);
        controller.postMessage({ type: dbPortType, owner: state.id } satisfies ServiceWorkerControlMessage, [port2]);
        return;
      }
      case 'offer-tab-port':
        return options.offerPort?.();
      case 'db-port-closed':
        container?.controller?.postMessage({ type: dbPortClosedType, owner: state.id, stopped: effect.stopped } satisfies ServiceWorkerControlMessage);
        return;
      case 'status':
        return updateStatus();
      case 'started':
        return markStarted();
      case 'start-failed': {
        const error = new ApiError(503, 'SERVICE_UNAVAILABLE', effect.error.message, undefined, { cause: { storeCode: effect.error.code } });
        if (state.role.kind === 'failed') logger.error(error.message);
        return markFailed(error);
      }
      case 'warn':
        return logger.warn(effect.message);
      case 'wake':
        clearTimeout(timer);
        if (effect.at !== undefined) timer = setTimeout(() => step({ type: 'tick', now: now() }), Math.max(0, effect.at - now()));
        return;
    }
  }

  /** Runs a request in this tab's DB worker; the answer goes back to the machine. */
  function serve(key: string): void {
    const request = bodies.get(key);
    if (!request) return;
    const owner = worker;
    const copy = request.body ? { ...request, body: request.body.slice(0) } : request;
    const reply = (moved: boolean, response: SerializedResponse) => step({ type: 'worker-answer', now: now(), key, moved, response });
    if (!owner) return reply(state.role.kind === 'handing-over', unavailable('This tab does not own the database.'));
    owner.ready
      .then(() => owner.fetch(copy))
      .then(
        (response) => reply(isMoved(response), response),
        // A worker that stopped to hand the database over ran none of what it refused: the next owner will.
        (error: unknown) => reply(state.role.kind === 'handing-over', unavailable(errorMessage(error))),
      )
      .finally(() => key.includes('|') && bodies.delete(key));
  }

  function answer(id: string, response: SerializedResponse): void {
    bodies.delete(id);
    waiting.get(id)?.(response);
    waiting.delete(id);
  }

  // --- Between tabs (the wire keeps the names of earlier versions, so that an older tab still understands a newer one) ---

  function post(message: TabWire, payload?: { key: string } | { response: SerializedResponse }): void {
    if (state.role.kind === 'closed' && message.type !== 'response') return;
    const wire = toWire(message, payload);
    if (wire) channel.postMessage(wire);
  }

  function toWire(message: TabWire, payload?: { key: string } | { response: SerializedResponse }): TabMessage | undefined {
    switch (message.type) {
      case 'hello':
        return message;
      case 'owner':
        return { type: 'leader', leaderId: message.owner, status: message.info };
      case 'owner-failed':
        return { type: 'leader-failed', leaderId: message.owner, error: message.error };
      case 'request': {
        const request = payload && 'key' in payload ? bodies.get(payload.key) : undefined;
        return request ? { type: 'request', id: message.id, from: message.from, to: message.to, request } : undefined;
      }
      case 'response': {
        const response = payload && 'response' in payload ? payload.response : movedAnswer;
        return { type: 'response', id: message.id, from: message.from, to: message.to, response };
      }
    }
  }

  channel.addEventListener('message', (event: MessageEvent<TabMessage>) => {
    const message = event.data;
    const at = now();
    switch (message?.type) {
      case 'hello':
        return step({ type: 'wire', now: at, message });
      case 'leader':
        return step({ type: 'wire', now: at, message: { type: 'owner', owner: message.leaderId, info: message.status } });
      case 'leader-failed':
        return step({ type: 'wire', now: at, message: { type: 'owner-failed', owner: message.leaderId, error: message.error } });
      case 'request':
        if (message.to !== state.id) return;
        bodies.set(`${message.from}|${message.id}`, message.request);
        return step({ type: 'wire', now: at, message: { type: 'request', id: message.id, from: message.from, to: message.to } });
      case 'response':
        return step({
          type: 'wire',
          now: at,
          message: { type: 'response', id: message.id, from: message.from, to: message.to, moved: isMoved(message.response) },
          response: message.response,
        });
      case 'call':
        if (message.to !== state.id || !worker) return;
        void runHere(message.op, message.bytes).then((result) => channel.postMessage({ type: 'result', id: message.id, to: message.from, ...result } satisfies TabMessage));
        return;
      case 'result':
        if (message.to === state.id) calls.get(message.id)?.(message);
        return;
    }
  });

  // --- Status -------------------------------------------------------------------------------------

  function updateStatus(): void {
    const role = state.role;
    let base: BackendStatus | undefined;
    if (role.kind === 'owning') base = { role: 'leader', storage: role.info.storage, ...(role.info.fallbackReason ? { fallbackReason: role.info.fallbackReason } : {}) };
    else if (role.kind === 'following' && role.info) {
      const { storage, fallbackReason } = role.info;
      base = { role: 'follower', storage, ...(fallbackReason ? { fallbackReason } : {}) };
    } else if (status && role.kind !== 'failed') base = { role: 'follower', storage: status.storage, ...(status.fallbackReason ? { fallbackReason: status.fallbackReason } : {}) };
    else base = status;
    if (!base) return;
    const next: BackendStatus = { ...base, ...(state.otherVersion ? { otherVersion: state.otherVersion } : {}), ...(state.outdated ? { outdated: true } : {}) };
    delete (next as { otherVersion?: string }).otherVersion;
    delete (next as { outdated?: boolean }).outdated;
    if (state.otherVersion) next.otherVersion = state.otherVersion;
    if (state.outdated) next.outdated = true;
    // An unchanged status keeps its identity (React's useSyncExternalStore compares snapshots).
    if (status && JSON.stringify(status) === JSON.stringify(next)) return;
    status = next;
    for (const listener of listeners) listener(next);
  }

  // --- The election, the service worker and the page's life ---------------------------------------

  void navigator.locks
    .request(options.lockName, { signal: lockAbort.signal }, () => new Promise<void>((resolve) => {
      releaseLock = resolve;
      step({ type: 'lock-granted', now: now() });
    }))
    .catch((error: unknown) => {
      if (state.role.kind !== 'closed' && !lockAbort.signal.aborted) logger.error('Could not take part in the election of the tab that owns the database:', error);
    });

  function onServiceWorkerMessage(event: MessageEvent): void {
    if ((event.data as { type?: unknown } | null)?.type === needDbPortType) step({ type: 'db-port-wanted', now: now() });
  }
  const onControllerChange = () => step({ type: 'db-port-wanted', now: now() });
  const onPageHide = () => step({ type: 'page-hide', now: now() });
  // Back from the back/forward cache with its database given up: start again.
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && state.stoppedOnHide) location.reload();
  };
  container?.addEventListener('message', onServiceWorkerMessage);
  container?.addEventListener('controllerchange', onControllerChange);
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
  }
  post(tabHello(state));

  // --- Database operations run in the owner tab (export, restore, delete) ---------------------------

  async function runHere(op: DatabaseOp, bytes?: ArrayBuffer): Promise<CallResult> {
    try {
      if (!worker) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'This tab does not own the database.');
      await worker.ready;
      if (op === 'export-database') return { bytes: await worker.exportDatabase() };
      const info = op === 'restore-database' ? await worker.restoreDatabase(bytes ?? new ArrayBuffer(0)) : await worker.deleteDatabase();
      step({ type: 'owner-info', now: now(), info: infoOf(info) });
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
      const owner = state.role.kind === 'following' ? state.role.owner : undefined;
      if (!owner) return reject(new ApiError(503, 'SERVICE_UNAVAILABLE', 'No tab owns the database right now. Try again in a moment.'));
      const id = `${state.id}:${nextId++}`;
      const timeout = setTimeout(() => {
        calls.delete(id);
        reject(new ApiError(504, 'TIMEOUT', `The tab that owns the database did not finish ${op} in time.`));
      }, callTimeoutMs);
      calls.set(id, (result) => {
        calls.delete(id);
        clearTimeout(timeout);
        settle(result);
      });
      channel.postMessage({ type: 'call', id, from: state.id, to: owner, op, ...(bytes ? { bytes } : {}) } satisfies TabMessage);
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
    dispatch(request, deadline) {
      const id = `${state.id}:${nextId++}`;
      bodies.set(id, request);
      const answered = new Promise<SerializedResponse>((resolve) => waiting.set(id, resolve));
      const own = deadline ?? (options.ownerWaitMs !== undefined ? now() + options.ownerWaitMs : undefined);
      step({
        type: 'dispatch',
        now: now(),
        id,
        label: `${request.method} ${new URL(request.url).pathname}`,
        read: request.method === 'GET' || request.method === 'HEAD',
        resend: safeToResend(request),
        long: isLongRunningRequest(request.method, request.url),
        ...(own !== undefined ? { deadline: own } : {}),
      });
      return answered;
    },
    call,
    close() {
      if (state.role.kind === 'closed') return;
      container?.removeEventListener('message', onServiceWorkerMessage);
      container?.removeEventListener('controllerchange', onControllerChange);
      if (typeof window !== 'undefined') {
        window.removeEventListener('pagehide', onPageHide);
        window.removeEventListener('pageshow', onPageShow);
      }
      step({ type: 'close', now: now() });
      clearTimeout(timer);
      channel.close();
      listeners.clear();
    },
  };
}

function infoOf(info: WorkerBackendInfo): { storage: WorkerBackendInfo['storage']; fallbackReason?: string } {
  return { storage: info.storage, ...(info.fallbackReason ? { fallbackReason: info.fallbackReason } : {}) };
}

function hostError(error: unknown): HostError {
  // The store's code (when the database itself failed) lets every tab offer recovery.
  const storeCode = (error as { cause?: { storeCode?: unknown } } | undefined)?.cause?.storeCode;
  return { code: typeof storeCode === 'string' ? storeCode : error instanceof ApiError ? error.code : 'SERVICE_UNAVAILABLE', message: errorMessage(error) };
}

function isMoved(response: SerializedResponse): boolean {
  return response.headers.some(([name]) => name.toLowerCase() === movedHeader);
}

function unavailable(message: string): SerializedResponse {
  return relayErrorSerialized(503, 'SERVICE_UNAVAILABLE', message);
}
