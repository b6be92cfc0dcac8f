// The Otto service worker (built as one classic script, `otto-sw.js`, served at the app root).
// It relays same-origin /api/* requests to the tab that asked, over a MessagePort, and lets every
// other request pass through untouched. It keeps no state that matters: the browser may stop it at
// any time, and a lost port is replaced by asking the tab again (INIT_PORT).
import {
  apiPathPrefix,
  claimClientsType,
  initPortType,
  relayErrorResponse,
  serializeRequest,
  deserializeResponse,
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
  postMessage(message: unknown, transfer: Transferable[]): void;
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
interface SwGlobalScope {
  readonly location: Location;
  readonly clients: {
    get(id: string): Promise<SwClient | undefined>;
    matchAll(options: { type: 'window' | 'all'; includeUncontrolled?: boolean }): Promise<SwClient[]>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: SwExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: SwFetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: SwMessageEvent) => void): void;
}

declare const self: SwGlobalScope;

/** How long a tab has to answer INIT_PORT before it is taken as having no backend. */
const handshakeTimeoutMs = 3_000;
/** How long to spend looking for a tab that answers, over all tabs asked. */
const findTabBudgetMs = 6_000;
/** How long a relayed request may take; longer than the tabs' own relay timeout (8 s). */
const requestTimeoutMs = 10_000;

interface Relay {
  port: MessagePort;
  pending: Map<number, (response: SerializedResponse) => void>;
}

const relays = new Map<string, Promise<Relay | undefined>>();
/** Tabs that did not answer INIT_PORT (a page without the backend): asked last, until they send INIT_PORT. */
const silent = new Set<string>();
let nextRequestId = 1;

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === claimClientsType) {
    // A tab loaded with Shift+Reload is not controlled until the worker claims it.
    event.waitUntil(self.clients.claim());
    return;
  }
  const port = event.ports[0];
  if (type === initPortType && port && event.source) {
    const relay = createRelay(port);
    relays.set(event.source.id, Promise.resolve(relay));
    silent.delete(event.source.id);
    port.postMessage({ type: 'PORT_READY' } satisfies PortMessage);
  }
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(apiPathPrefix)) return;
  event.respondWith(relayRequest(event));
});

async function relayRequest(event: SwFetchEvent): Promise<Response> {
  const { method } = event.request;
  const path = new URL(event.request.url).pathname;
  let request: SerializedRequest;
  try {
    request = await serializeRequest(event.request);
  } catch {
    return relayErrorResponse(503, 'SERVICE_UNAVAILABLE', `Otto could not read the request ${method} ${path}.`);
  }
  // Fast path: the tab that asked is alive (it just made this request) and its port is known.
  const known = event.clientId ? relays.get(event.clientId) : undefined;
  const knownRelay = known && (await known);
  if (knownRelay) return send(knownRelay, event.clientId, request, `${method} ${path}`);

  const giveUpAt = Date.now() + findTabBudgetMs;
  for (const client of await candidateClients(event)) {
    if (Date.now() > giveUpAt) break;
    const relay = await relayFor(client);
    if (relay) return send(relay, client.id, request, `${method} ${path}`);
  }
  return relayErrorResponse(
    503,
    'SERVICE_UNAVAILABLE',
    `No open Otto tab answered ${method} ${path}: the in-browser backend is not running. Open Otto in a tab (or reload it) and try again.`,
  );
}

/** The tab that asked first, then any other window (a typed-in navigation has no tab yet). */
async function candidateClients(event: SwFetchEvent): Promise<SwClient[]> {
  const windows = await self.clients.matchAll({ type: 'window' });
  const alive = new Set(windows.map((c) => c.id));
  for (const id of relays.keys()) if (!alive.has(id)) relays.delete(id);
  for (const id of silent) if (!alive.has(id)) silent.delete(id);

  const asking = event.clientId ? await self.clients.get(event.clientId) : undefined;
  const others = windows.filter((c) => c.id !== event.clientId && c.id !== event.resultingClientId);
  // Tabs whose port is known first, then tabs to ask for one, then tabs that did not answer before.
  const rank = (c: SwClient) => (relays.has(c.id) ? 0 : silent.has(c.id) ? 2 : 1);
  others.sort((a, b) => rank(a) - rank(b));
  if (asking?.type !== 'window') return others;
  return silent.has(asking.id) ? [...others, asking] : [asking, ...others];
}

/** The cached port to a tab, or a fresh one obtained with INIT_PORT; undefined when the tab does not answer. */
function relayFor(client: SwClient): Promise<Relay | undefined> {
  let relay = relays.get(client.id);
  if (!relay) {
    relay = handshake(client);
    relays.set(client.id, relay);
    void relay.then((r) => {
      if (r || relays.get(client.id) !== relay) return;
      relays.delete(client.id);
      silent.add(client.id);
    });
  }
  return relay;
}

function handshake(client: SwClient): Promise<Relay | undefined> {
  const channel = new MessageChannel();
  const relay = createRelay(channel.port1);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      channel.port1.close();
      resolve(undefined);
    }, handshakeTimeoutMs);
    channel.port1.addEventListener('message', function onReady(event: MessageEvent<PortMessage>) {
      if (event.data?.type !== 'PORT_READY') return;
      channel.port1.removeEventListener('message', onReady);
      clearTimeout(timer);
      resolve(relay);
    });
    client.postMessage({ type: initPortType }, [channel.port2]);
  });
}

function createRelay(port: MessagePort): Relay {
  const pending = new Map<number, (response: SerializedResponse) => void>();
  port.addEventListener('message', (event: MessageEvent<PortMessage>) => {
    const message = event.data;
    if (message?.type !== 'RESPONSE') return;
    pending.get(message.id)?.(message.response);
  });
  port.start();
  return { port, pending };
}

function send(relay: Relay, clientId: string, request: SerializedRequest, label: string): Promise<Response> {
  const id = nextRequestId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      relay.pending.delete(id);
      // The port may be dead; the next request asks the tab for a fresh one.
      void relays.get(clientId)?.then((r) => {
        if (r === relay) relays.delete(clientId);
      });
      resolve(
        relayErrorResponse(
          504,
          'TIMEOUT',
          `The in-browser backend did not answer ${label} within ${requestTimeoutMs / 1000} seconds. Try again; if it keeps happening, reload the tab.`,
        ),
      );
    }, requestTimeoutMs);
    relay.pending.set(id, (response) => {
      clearTimeout(timer);
      relay.pending.delete(id);
      resolve(deserializeResponse(response));
    });
    relay.port.postMessage({ type: 'REQUEST', id, request } satisfies PortMessage, transferablesOf(request));
  });
}
