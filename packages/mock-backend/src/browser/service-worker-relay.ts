// The service worker's driver of the host protocol. Its job: answer same-origin /api/* requests
// from the database owner, whichever tab that is now, and let every other request pass to the
// listeners registered after it (a precache, say). The decisions (where a request goes, how long
// it may wait, what is sent again when an owner changes) are made by the pure machine in
// host/sw-core.ts; this file only turns browser events into its events and carries out its
// effects. It keeps no state that matters: the browser may stop the worker at any time; a lost
// port is replaced by asking the tabs again.
import { mockBackendVersion } from '../version';
import { createSwState, swStep, type PortId, type SwEffect, type SwEvent } from './host/sw-core';
import {
  apiPathPrefix,
  claimClientsType,
  dbPortClosedType,
  dbPortType,
  deserializeResponse,
  failureOf,
  initPortType,
  isLongRunningRequest,
  isMoved,
  needDbPortType,
  pageGoneType,
  relayErrorResponse,
  safeToResend,
  serializeRequest,
  transferablesOf,
  type PortMessage,
  type SerializedRequest,
  type SerializedResponse,
} from './protocol';

// The DOM lib has no service worker types, and the WebWorker lib conflicts with it: declare only
// what this script uses.
interface SwClient {
  readonly id: string;
  readonly type: string;
  postMessage(message: unknown, transfer?: Transferable[]): void;
}
interface SwExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface SwFetchEvent extends SwExtendableEvent {
  readonly request: Request;
  readonly clientId: string;
  readonly resultingClientId: string;
  respondWith(response: Promise<Response>): void;
}
interface SwMessageEvent extends SwExtendableEvent {
  readonly data: unknown;
  readonly source: SwClient | null;
  readonly ports: readonly MessagePort[];
}

/**
 * The part of a service worker's global scope the relay uses (`self` in a service worker).
 * @example
 * declare const self: OttoRelayScope;
 * installOttoRelay(self);
 */
export interface OttoRelayScope {
  readonly location: Location;
  readonly clients: {
    get(id: string): Promise<SwClient | undefined>;
    matchAll(options: { type: 'window' | 'all'; includeUncontrolled?: boolean }): Promise<SwClient[]>;
    claim(): Promise<void>;
  };
  addEventListener(type: 'fetch', listener: (event: SwFetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: SwMessageEvent) => void): void;
}

/**
 * Installs Otto's /api relay in a service worker: registers its `fetch` and `message` listeners.
 * Install it before any other fetch listener (a precache's routes, say), so that /api requests
 * are answered here and never reach them.
 * @example
 * // sw.ts, bundled by your build as the service worker at the app root
 * import { installOttoRelay } from '@otto/mock-backend/service-worker';
 * installOttoRelay(self as unknown as OttoRelayScope);
 * // …then your own listeners (precache, runtime caching)
 */
export function installOttoRelay(scope: OttoRelayScope): void {
  const state = createSwState();
  const ports = new Map<PortId, MessagePort>();
  const bodies = new Map<number, SerializedRequest>();
  const answers = new Map<number, (response: Response) => void>();
  /** The handshake port offered to each page, until it answers (a newer ask replaces it). */
  const offered = new Map<string, MessagePort>();
  let nextPort = 1;
  let nextRequest = 1;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function step(event: SwEvent<SerializedResponse>): void {
    for (const effect of swStep(state, event)) carryOut(effect);
  }

  function windows(): Promise<string[]> {
    return scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(
      (list) => list.map((c) => c.id),
      () => [],
    );
  }

  function carryOut(effect: SwEffect<SerializedResponse>): void {
    switch (effect.type) {
      case 'send': {
        const request = bodies.get(effect.id);
        const port = ports.get(effect.port);
        if (!request || !port) return;
        // The body is transferred: keep the original in case it has to be sent again elsewhere.
        const copy = request.body ? { ...request, body: request.body.slice(0) } : request;
        port.postMessage({ type: 'REQUEST', id: effect.id, request: copy, deadline: effect.deadline, tried: effect.tried } satisfies PortMessage, transferablesOf(copy));
        return;
      }
      case 'respond':
        return finish(effect.id, deserializeResponse(effect.response));
      case 'refuse':
        return finish(effect.id, relayErrorResponse(effect.status, effect.code, effect.message));
      case 'ask-tabs':
        void scope.clients.matchAll({ type: 'window' }).then((list) => {
          for (const client of list) client.postMessage({ type: needDbPortType });
        });
        return;
      case 'ask-tab':
        void scope.clients.get(effect.clientId).then((client) => {
          if (client?.type === 'window') handshake(client);
        });
        return;
      case 'close-port':
        ports.get(effect.port)?.close();
        ports.delete(effect.port);
        return;
      case 'wake':
        clearTimeout(timer);
        if (effect.at === undefined) return;
        timer = setTimeout(() => {
          const aliveAt = Date.now();
          void windows().then((alive) => step({ type: 'tick', now: Date.now(), alive, aliveAt }));
        }, Math.max(0, effect.at - Date.now()));
        return;
    }
  }

  function finish(id: number, response: Response): void {
    bodies.delete(id);
    answers.get(id)?.(response);
    answers.delete(id);
  }

  /** Registers a port whose RESPONSE messages become the machine's `answer` events. */
  function adopt(port: MessagePort): PortId {
    const id = nextPort++;
    ports.set(id, port);
    port.addEventListener('message', (event: MessageEvent<PortMessage>) => {
      const message = event.data;
      if (message?.type !== 'RESPONSE') return;
      const moved = isMoved(message.response);
      step({ type: 'answer', now: Date.now(), port: id, id: message.id, moved, ...failureOf(message.response), response: message.response });
    });
    port.start();
    return id;
  }

  /** The spec's INIT_PORT: a port to a page, usable once it answers PORT_READY (a page that does not listen yet never does). */
  function handshake(client: SwClient): void {
    offered.get(client.id)?.close();
    const channel = new MessageChannel();
    offered.set(client.id, channel.port1);
    channel.port1.addEventListener('message', function onReady(event: MessageEvent<PortMessage>) {
      if (event.data?.type !== 'PORT_READY') return;
      channel.port1.removeEventListener('message', onReady);
      if (offered.get(client.id) === channel.port1) offered.delete(client.id);
      step({ type: 'tab-port', now: Date.now(), clientId: client.id, port: adopt(channel.port1) });
    });
    channel.port1.start();
    client.postMessage({ type: initPortType }, [channel.port2]);
  }

  scope.addEventListener('message', (event) => {
    const data = event.data as { type?: unknown; stopped?: unknown } | null;
    const type = data?.type;
    const source = event.source?.id;
    const port = event.ports[0];
    if (type === claimClientsType) {
      // A tab loaded with Shift+Reload is not controlled until the worker claims it.
      event.waitUntil(scope.clients.claim());
    } else if (type === initPortType && port && source) {
      port.postMessage({ type: 'PORT_READY', version: mockBackendVersion } satisfies PortMessage);
      step({ type: 'tab-port', now: Date.now(), clientId: source, port: adopt(port) });
    } else if (type === dbPortType && port && source) {
      step({ type: 'owner-port', now: Date.now(), owner: source, port: adopt(port) });
    } else if (type === pageGoneType && source) {
      step({ type: 'page-gone', now: Date.now(), clientId: source });
    } else if (type === dbPortClosedType && source) {
      step({ type: 'owner-closed', now: Date.now(), owner: source, stopped: data?.stopped === true });
    }
  });

  scope.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== scope.location.origin || !url.pathname.startsWith(apiPathPrefix)) return;
    event.respondWith(relay(event, url.pathname));
  });

  async function relay(event: SwFetchEvent, path: string): Promise<Response> {
    const { method } = event.request;
    const label = `${method} ${path}`;
    let request: SerializedRequest;
    try {
      request = await serializeRequest(event.request);
    } catch {
      return relayErrorResponse(503, 'SERVICE_UNAVAILABLE', `Otto could not read the request ${label}.`);
    }
    // With no owner's port known, which pages are still there decides where it may go.
    const aliveAt = Date.now();
    const alive = state.owner.kind === 'none' ? await windows() : undefined;
    const id = nextRequest++;
    bodies.set(id, request);
    const answered = new Promise<Response>((resolve) => answers.set(id, resolve));
    step({
      type: 'fetch',
      now: Date.now(),
      request: {
        id,
        label,
        clientId: event.clientId,
        read: method === 'GET' || method === 'HEAD',
        // Every write serialized here has a request id: the database runs it at most once.
        resend: safeToResend(request),
        long: isLongRunningRequest(method, request.url),
      },
      ...(alive ? { alive, aliveAt } : {}),
    });
    return answered;
  }
}
