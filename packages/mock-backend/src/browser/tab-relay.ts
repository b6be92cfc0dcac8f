// One tab's driver of the host protocol. Its job: take part in the election of the tab that owns
// the database (a Web Lock), run the DB worker while this tab owns it, and relay this tab's
// requests (its own, and those the service worker sends through it) to whichever tab owns it
// now, over a BroadcastChannel. Every decision is made by the pure machine in host/tab-core.ts;
// this file turns browser events into its events and carries out its effects.
import { ApiError } from '../runtime/api-error';
import { createOwnerCalls } from './owner-calls';
import { createTabState, tabHello, tabStep, type TabEffect, type TabEvent, type TabWire } from './host/tab-core';
import { startDbWorker, type DbWorkerClient } from './db-worker-client';
import {
  dbPortClosedType,
  dbPortType,
  errorMessage,
  failureOf,
  isMoved,
  isLongRunningRequest,
  movedAnswer,
  needDbPortType,
  pageGoneType,
  relayErrorSerialized,
  safeToResend,
  type SerializedRequest,
  type SerializedResponse,
  type ServiceWorkerControlMessage,
} from './protocol';
import { fromWire, toWire, type TabMessage } from './tab-messages';
import { hostError, infoOf, statusOf, unavailable, waitingFor } from './tab-status';
import type { BackendStatus } from './types';
import type { TabRelay, TabRelayOptions } from './tab-relay-types';

export type { TabRelay, TabRelayOptions } from './tab-relay-types';

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
        const starting = startDbWorker(options.createWorker, (message) => logger.error(message));
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
      case 'page-gone':
        container?.controller?.postMessage({ type: pageGoneType } satisfies ServiceWorkerControlMessage);
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
    const reply = (moved: boolean, response: SerializedResponse) => step({ type: 'worker-answer', now: now(), key, moved, ...failureOf(response), response });
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
    const body = payload && 'key' in payload ? bodies.get(payload.key) : undefined;
    const wire = toWire(message, body ?? (payload && 'response' in payload ? payload.response : undefined));
    if (wire) channel.postMessage(wire);
  }

  channel.addEventListener('message', (event: MessageEvent<TabMessage>) => {
    const message = event.data;
    const at = now();
    if (message?.type === 'call' || message?.type === 'result') return calls.onMessage(message);
    // Another tab's request is none of this tab's business (its machine would ignore it).
    if (message?.type === 'request') {
      if (message.to !== state.id) return;
      bodies.set(`${message.from}|${message.id}`, message.request);
    }
    const wire = fromWire(message);
    if (!wire) return;
    // Every answer tells when its owner last spoke; only the addressee reads what it says.
    const mine = message?.type === 'response' && message.to === state.id;
    step({ type: 'wire', now: at, message: wire, ...(message?.type === 'response' ? { response: message.response, ...(mine ? failureOf(message.response) : {}) } : {}) });
  });

  // --- Status -------------------------------------------------------------------------------------

  function updateStatus(): void {
    const next = statusOf(state, status);
    // An unchanged status keeps its identity (React's useSyncExternalStore compares snapshots).
    if (!next || (status && JSON.stringify(status) === JSON.stringify(next))) return;
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
  const onPageHide = (event: PageTransitionEvent) => step({ type: 'page-hide', now: now(), persisted: event.persisted });
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

  // Database operations (export, restore, delete) run in the owner tab.
  const calls = createOwnerCalls({
    channel,
    tabId: state.id,
    worker: () => worker,
    owner: () => (state.role.kind === 'following' ? state.role.owner : undefined),
    replaced: (info) => step({ type: 'owner-info', now: now(), info: infoOf(info) }),
  });

  return {
    get status() {
      return status;
    },
    started,
    waitingFor: () => waitingFor(state),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch(request, relayed) {
      const deadline = relayed?.deadline;
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
        ...(relayed?.tried ? { tried: true } : {}),
      });
      return answered;
    },
    call: calls.call,
    close() {
      if (state.role.kind === 'closed') return;
      container?.removeEventListener('message', onServiceWorkerMessage);
      container?.removeEventListener('controllerchange', onControllerChange);
      if (typeof window !== 'undefined') {
        window.removeEventListener('pagehide', onPageHide);
        window.removeEventListener('pageshow', onPageShow);
      }
      step({ type: 'close', now: now() });
      channel.close();
      listeners.clear();
    },
  };
}
