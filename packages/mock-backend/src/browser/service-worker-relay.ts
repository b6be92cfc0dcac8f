// Otto's /api relay, for any service worker: `installOttoRelay(self)` answers same-origin /api/*
// requests from the in-browser database and lets every other request pass to the listeners
// registered after it (a precache, say). It keeps no state that matters: the browser may stop the
// worker at any time; a lost port is replaced by asking the tabs again.
//
// Two ways to the database, fastest first:
// 1. A port straight to the DB worker, handed over by the tab that owns the database (DB_PORT).
//    Requests then skip every tab's main thread.
// 2. A port to the tab that asked (INIT_PORT), which relays to the owner tab. Used while there is
//    no database port (the worker was just started, or the owner changed) and as the fallback.
import { mockBackendVersion } from '../version';
import {
  apiPathPrefix,
  isLongRunningRequest,
  longRequestTimeoutMs,
  startProgressTimer,
  claimClientsType,
  dbPortClosedType,
  dbPortType,
  initPortType,
  movedAnswer,
  movedHeader,
  needDbPortType,
  relayErrorResponse,
  relayErrorSerialized,
  serializeRequest,
  deserializeResponse,
  transferablesOf,
  type PortMessage,
  safeToResend,
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

/** How long a tab has to answer INIT_PORT before it is taken as having no backend. */
const handshakeTimeoutMs = 3_000;
/** How long to spend looking for a tab that answers, over all tabs asked. */
const findTabBudgetMs = 6_000;
/** How long a relayed request may take; longer than the tabs' own relay timeout (8 s). */
const requestTimeoutMs = 10_000;
/** How long a previous owner's port may still answer after a new owner's port arrived. */
const supersededGraceMs = 2_000;
/** How long a request waits for the next owner's database port when the current one is moving. */
const movingWaitMs = 5_000;

interface Route {
  port: MessagePort;
  pending: Map<number, (response: SerializedResponse) => void>;
  /** When the other end last answered anything (Date.now()): a busy database is not a dead one. */
  lastAnswerAt: number;
}

interface DbRoute extends Route {
  /** The tab that owns the database (and handed over this port). */
  owner: string;
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
  const tabRoutes = new Map<string, Promise<Route | undefined>>();
  /** Tabs that did not answer INIT_PORT (a page without the backend): asked last, until they send INIT_PORT. */
  const silent = new Set<string>();
  let dbRoute: DbRoute | undefined;
  /** Resolves the requests waiting for a database port (after a move, or while none is known). */
  const dbRouteWaiters: Array<() => void> = [];
  let askedForDbPort = false;
  /** Ports of previous owners that may still answer what they have (see adoptDbPort). */
  const superseded = new Map<string, { route: DbRoute; timer: ReturnType<typeof setTimeout> }>();
  let nextRequestId = 1;

  scope.addEventListener('message', (event) => {
    const data = event.data as { type?: unknown; owner?: unknown } | null;
    const type = data?.type;
    if (type === claimClientsType) {
      // A tab loaded with Shift+Reload is not controlled until the worker claims it.
      event.waitUntil(scope.clients.claim());
      return;
    }
    const port = event.ports[0];
    if (type === initPortType && port && event.source) {
      tabRoutes.set(event.source.id, Promise.resolve(createRoute(port)));
      silent.delete(event.source.id);
      port.postMessage({ type: 'PORT_READY', version: mockBackendVersion } satisfies PortMessage);
      return;
    }
    if (type === dbPortType && port && typeof data?.owner === 'string') {
      adoptDbPort(data.owner, port);
      return;
    }
    if (type === dbPortClosedType && typeof data?.owner === 'string') {
      const why = (data as { stopped?: unknown }).stopped === true ? 'unrun' : 'closed';
      const old = superseded.get(data.owner);
      if (old) {
        superseded.delete(data.owner);
        clearTimeout(old.timer);
        retire(old.route, why);
      }
      if (dbRoute?.owner === data.owner) {
        const route = dbRoute;
        dbRoute = undefined;
        askedForDbPort = false;
        retire(route, why);
      }
    }
  });

  scope.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== scope.location.origin || !url.pathname.startsWith(apiPathPrefix)) return;
    event.respondWith(relayRequest(event));
  });

  function adoptDbPort(owner: string, port: MessagePort): void {
    const old = dbRoute;
    dbRoute = Object.assign(createRoute(port), { owner });
    askedForDbPort = false;
    // The same owner handing a fresh port keeps its worker: what went on the old port is answered
    // there. A new owner: the old one's worker answers what it still has (it stops before handing
    // over, then says so with DB_PORT_CLOSED), unless it crashed: give it a moment.
    if (old && old.owner !== owner) {
      superseded.set(old.owner, { route: old, timer: setTimeout(() => {
        superseded.delete(old.owner);
        retire(old, 'owner');
      }, supersededGraceMs) });
    }
    for (const wake of dbRouteWaiters.splice(0)) wake();
  }

  /**
   * A database port that is gone: its owner closed, crashed, or handed the database to a newer tab.
   * What was still on it is sent again: all of it when the worker had stopped first (nothing on
   * the port was run), else only reads and PUTs; a write that may have reached the old worker is
   * answered with the doubt in words rather than run twice.
   */
  function retire(old: DbRoute, why: 'unrun' | 'closed' | 'owner'): void {
    for (const [id, settle] of old.pending) {
      old.pending.delete(id);
      settle(why === 'unrun' ? movedAnswer : { ...movedAnswer, headers: [...movedAnswer.headers, [retiredHeader, why]] });
    }
    old.port.close();
  }

  async function relayRequest(event: SwFetchEvent): Promise<Response> {
    const { method } = event.request;
    const path = new URL(event.request.url).pathname;
    const label = `${method} ${path}`;
    let request: SerializedRequest;
    try {
      request = await serializeRequest(event.request);
    } catch {
      return relayErrorResponse(503, 'SERVICE_UNAVAILABLE', `Otto could not read the request ${label}.`);
    }
    // Reads, PUTs, and writes with a request id (every write serialized here has one) may be sent again.
    const idempotent = safeToResend(request);
    const deadline = Date.now() + movingWaitMs;
    for (;;) {
      if (!dbRoute) requestDbPort();
      const route = dbRoute;
      const answer = route ? await send(route, request, label) : await viaTab(event, request, label);
      if (headerOf(answer, movedHeader) === undefined) return deserializeResponse(answer);
      // The worker refused it unrun (it is handing over: safe to send again), or its port went away
      // with the request on it (it may have run: only reads and PUTs are sent again).
      if (headerOf(answer, retiredHeader) !== undefined && !idempotent) {
        return relayErrorResponse(
          503,
          'SERVICE_UNAVAILABLE',
          `The tab that owned the database closed before answering ${label}, so this change may or may not have been saved. Reload to check, then try again.`,
        );
      }
      if (Date.now() > deadline) {
        return relayErrorResponse(503, 'SERVICE_UNAVAILABLE', `The database is moving to another tab and did not answer ${label}. Try again.`);
      }
      if (dbRoute === route) {
        if (route) dbRoute = undefined;
        await waitForDbRoute(deadline);
      }
    }
  }

  function waitForDbRoute(deadline: number): Promise<void> {
    requestDbPort();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, Math.min(deadline - Date.now(), 500)));
      dbRouteWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Asks the open tabs for a port to the DB worker; the owner answers with DB_PORT. */
  function requestDbPort(): void {
    if (askedForDbPort) return;
    askedForDbPort = true;
    void scope.clients.matchAll({ type: 'window' }).then((windows) => {
      for (const client of windows) client.postMessage({ type: needDbPortType });
    });
    // Ask again later if nobody answered (the owner may be starting).
    setTimeout(() => (askedForDbPort = false), 2_000);
  }

  async function viaTab(event: SwFetchEvent, request: SerializedRequest, label: string): Promise<SerializedResponse> {
    // Fast path: the tab that asked is alive (it just made this request) and its port is known.
    const known = event.clientId ? tabRoutes.get(event.clientId) : undefined;
    const knownRoute = known && (await known);
    if (knownRoute) return send(knownRoute, request, label, () => forgetTab(event.clientId, knownRoute));

    const giveUpAt = Date.now() + findTabBudgetMs;
    for (const client of await candidateClients(event)) {
      if (Date.now() > giveUpAt) break;
      const route = await tabRouteFor(client);
      if (route) return send(route, request, label, () => forgetTab(client.id, route));
    }
    return relayErrorSerialized(
      503,
      'SERVICE_UNAVAILABLE',
      `No open Otto tab answered ${label}: the in-browser backend is not running. Open Otto in a tab (or reload it) and try again.`,
    );
  }

  function forgetTab(clientId: string, route: Route): void {
    void tabRoutes.get(clientId)?.then((r) => {
      if (r === route) tabRoutes.delete(clientId);
    });
  }

  /** The tab that asked first, then any other window (a typed-in navigation has no tab yet). */
  async function candidateClients(event: SwFetchEvent): Promise<SwClient[]> {
    const windows = await scope.clients.matchAll({ type: 'window' });
    const alive = new Set(windows.map((c) => c.id));
    for (const id of tabRoutes.keys()) if (!alive.has(id)) tabRoutes.delete(id);
    for (const id of silent) if (!alive.has(id)) silent.delete(id);

    const asking = event.clientId ? await scope.clients.get(event.clientId) : undefined;
    const others = windows.filter((c) => c.id !== event.clientId && c.id !== event.resultingClientId);
    // Tabs whose port is known first, then tabs to ask for one, then tabs that did not answer before.
    const rank = (c: SwClient) => (tabRoutes.has(c.id) ? 0 : silent.has(c.id) ? 2 : 1);
    others.sort((a, b) => rank(a) - rank(b));
    if (asking?.type !== 'window') return others;
    return silent.has(asking.id) ? [...others, asking] : [asking, ...others];
  }

  /** The cached port to a tab, or a fresh one obtained with INIT_PORT; undefined when the tab does not answer. */
  function tabRouteFor(client: SwClient): Promise<Route | undefined> {
    let route = tabRoutes.get(client.id);
    if (!route) {
      route = handshake(client);
      tabRoutes.set(client.id, route);
      void route.then((r) => {
        if (r || tabRoutes.get(client.id) !== route) return;
        tabRoutes.delete(client.id);
        silent.add(client.id);
      });
    }
    return route;
  }

  function handshake(client: SwClient): Promise<Route | undefined> {
    const channel = new MessageChannel();
    const route = createRoute(channel.port1);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        channel.port1.close();
        resolve(undefined);
      }, handshakeTimeoutMs);
      channel.port1.addEventListener('message', function onReady(event: MessageEvent<PortMessage>) {
        if (event.data?.type !== 'PORT_READY') return;
        channel.port1.removeEventListener('message', onReady);
        clearTimeout(timer);
        resolve(route);
      });
      client.postMessage({ type: initPortType }, [channel.port2]);
    });
  }

  function send(route: Route, request: SerializedRequest, label: string, onTimeout?: () => void): Promise<SerializedResponse> {
    const id = nextRequestId++;
    // The body is transferred: keep a copy in case the request has to be sent again elsewhere.
    const copy = request.body ? { ...request, body: request.body.slice(0) } : request;
    // An import of many rows, or its undo, may take far longer than a page of data.
    const timeoutMs = isLongRunningRequest(request.method, request.url) ? longRequestTimeoutMs : requestTimeoutMs;
    return new Promise((resolve) => {
      const cancel = startProgressTimer(timeoutMs, () => route.lastAnswerAt, () => {
        route.pending.delete(id);
        // The port may be dead; the next request asks for a fresh one.
        if (route === dbRoute) dbRoute = undefined;
        onTimeout?.();
        resolve(
          relayErrorSerialized(
            504,
            'TIMEOUT',
            `The in-browser backend did not answer ${label} within ${timeoutMs / 1000} seconds. Try again; if it keeps happening, reload the tab.`,
          ),
        );
      });
      route.pending.set(id, (response) => {
        cancel();
        route.pending.delete(id);
        resolve(response);
      });
      route.port.postMessage({ type: 'REQUEST', id, request: copy } satisfies PortMessage, transferablesOf(copy));
    });
  }
}

/** Marks the answers of a port that went away with requests still on it. */
const retiredHeader = 'x-otto-retired';

function createRoute(port: MessagePort): Route {
  const route: Route = { port, pending: new Map(), lastAnswerAt: 0 };
  port.addEventListener('message', (event: MessageEvent<PortMessage>) => {
    const message = event.data;
    if (message?.type !== 'RESPONSE') return;
    route.lastAnswerAt = Date.now();
    route.pending.get(message.id)?.(message.response);
  });
  port.start();
  return route;
}

function headerOf(response: SerializedResponse, name: string): string | undefined {
  return response.headers.find(([key]) => key.toLowerCase() === name)?.[1];
}
