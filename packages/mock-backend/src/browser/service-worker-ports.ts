import { ApiError } from '../runtime/api-error';
import { mockBackendVersion } from '../version';
import {
  answerRequestsOn,
  initPortType,
  type PortMessage,
  type Relayed,
  type SerializedRequest,
  type SerializedResponse,
  type ServiceWorkerControlMessage,
} from './protocol';

/** This tab's end of the service worker relay. */
export interface ServiceWorkerPorts {
  /** Gives `controller` a port now (so its first request needs no handshake); resolves on its PORT_READY. */
  connect(controller: ServiceWorker): Promise<void>;
  close(): void;
}

const handshakeTimeoutMs = 3_000;
/** A stopped service worker never uses its old ports again; a few are kept for requests in flight. */
const keptPorts = 4;

/**
 * Answers the requests the service worker relays to this tab with `dispatch`. The worker may be
 * stopped at any time and forget its ports: it then sends INIT_PORT with a new one, adopted here.
 * A new controller (an updated worker) gets a port at once.
 */
export function listenForServiceWorkerPorts(
  dispatch: (request: SerializedRequest, relayed?: Relayed) => Promise<SerializedResponse>,
): ServiceWorkerPorts {
  const container = navigator.serviceWorker;
  const ports: MessagePort[] = [];
  let connected = false;

  function adopt(port: MessagePort): void {
    answerRequestsOn(port, dispatch);
    ports.push(port);
    while (ports.length > keptPorts) ports.shift()?.close();
  }

  function onMessage(event: MessageEvent): void {
    const port = event.ports[0];
    if ((event.data as { type?: unknown } | null)?.type !== initPortType || !port) return;
    adopt(port);
    port.postMessage({ type: 'PORT_READY' } satisfies PortMessage);
  }

  function onControllerChange(): void {
    if (connected && container.controller) connect(container.controller).catch(() => undefined);
  }

  function connect(controller: ServiceWorker): Promise<void> {
    connected = true;
    const { port1, port2 } = new MessageChannel();
    const acknowledged = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ApiError(503, 'SERVICE_UNAVAILABLE', 'The Otto service worker did not answer. Reload the page.')),
        handshakeTimeoutMs,
      );
      port1.addEventListener('message', function onReady(event: MessageEvent<PortMessage>) {
        if (event.data?.type !== 'PORT_READY') return;
        port1.removeEventListener('message', onReady);
        clearTimeout(timer);
        reportVersionMismatch(controller.scriptURL, event.data.version);
        resolve();
      });
    });
    adopt(port1);
    controller.postMessage({ type: initPortType } satisfies ServiceWorkerControlMessage, [port2]);
    return acknowledged;
  }

  container.addEventListener('message', onMessage);
  container.addEventListener('controllerchange', onControllerChange);
  // Messages from the worker are queued until the page starts them (or finishes loading).
  container.startMessages();

  return {
    connect,
    close() {
      container.removeEventListener('message', onMessage);
      container.removeEventListener('controllerchange', onControllerChange);
      for (const port of ports.splice(0)) port.close();
    },
  };
}

let reportedMismatch = false;

/**
 * Says in the console, once, when the service worker comes from another @otto/mock-backend version
 * than this page (an `otto-sw.js` copied before an upgrade). It still relays: the message names the fix.
 */
function reportVersionMismatch(scriptUrl: string, swVersion: string | undefined): void {
  if (swVersion === mockBackendVersion || reportedMismatch) return;
  reportedMismatch = true;
  console.error(
    `[otto] The service worker ${scriptUrl} is from ${swVersion ? `@otto/mock-backend ${swVersion}` : 'an older @otto/mock-backend'}, but this page uses ${mockBackendVersion}. ` +
      'Copy the current one with `npx otto-mock-backend init <your public folder>` (or let ottoMockBackend() from @otto/mock-backend/vite serve it), then reload.',
  );
}
