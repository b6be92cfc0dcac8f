import { createLogger, type Logger } from '../logger';
import { asBackupBlob } from '../database/backup-limits';
import { ApiError } from '../runtime/api-error';
import { defaultChangeChannelName, listenForChanges } from './change-channel';
import { controlPage, delay } from './control-page';
import { deserializeResponse, serializeRequest } from './protocol';
import { listenForServiceWorkerPorts } from './service-worker-ports';
import { createTabRelay } from './tab-relay';
import type { BrowserBackend, BrowserBackendOptions } from './types';

/**
 * Starts Otto's in-browser backend in this tab and resolves once `/api/*` requests are answered:
 * registers the service worker and waits until it controls the page (claiming it after a hard
 * reload), elects one tab per origin to own the database (Web Lock), starts the DB worker there,
 * and relays this tab's requests to the owner. When the owner tab closes, another tab takes over.
 * Call it once per page.
 * @example
 * const backend = await startBrowserBackend({
 *   serviceWorkerUrl: '/otto-sw.js',
 *   createWorker: () => new Worker(new URL('./db.worker.ts', import.meta.url), { type: 'module' }),
 * });
 * const res = await fetch('/api/customers'); // answered by the database in this browser
 */
export async function startBrowserBackend(options: BrowserBackendOptions): Promise<BrowserBackend> {
  assertSupported();
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const relay = createTabRelay({
    createWorker: options.createWorker,
    appVersion: options.appVersion,
    lockName: options.lockName ?? 'otto-db-owner',
    channelName: options.channelName ?? 'otto-backend',
    ownerWaitMs: options.requestTimeoutMs,
    directPort: options.directPort ?? true,
    // Asked for a route by the service worker (it has none: it was restarted, or the owner changed).
    offerPort: () => {
      const controller = navigator.serviceWorker.controller;
      if (controller) ports.connect(controller).catch(() => undefined);
    },
    logger: options.logger ?? createLogger(),
  });
  // Listening before registering: the worker may ask for a port as soon as it controls the page.
  const ports = listenForServiceWorkerPorts(relay.dispatch);

  let controlledPromise: Promise<void> = Promise.resolve();
  const backend: BrowserBackend = {
    get controlled() {
      return controlledPromise;
    },
    get status() {
      const { status } = relay;
      if (!status) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The Otto backend has not started yet.');
      return status;
    },
    subscribe: (listener) => relay.subscribe(listener),
    onChange: (listener) => listenForChanges(options.changeChannelName ?? defaultChangeChannelName, listener),
    async fetch(request) {
      const response = deserializeResponse(await relay.dispatch(await serializeRequest(request)));
      // As fetch does for a dropped connection (a scenario's `error: 'network'`).
      if (response.type === 'error') throw new TypeError('Failed to fetch (the mock backend’s scenario drops this request).');
      return response;
    },
    async deleteDatabase() {
      await relay.call('delete-database');
    },
    async exportDatabase() {
      return new Uint8Array((await relay.call('export-database')) ?? new ArrayBuffer(0));
    },
    async restoreDatabase(backup) {
      await relay.call('restore-database', asBackupBlob(backup));
    },
    close() {
      ports.close();
      relay.close();
    },
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  let isControlled = false;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Which part of the start is still waiting, in words: the page's control, or the database.
      const waits = [relay.waitingFor(), waitForControl && !isControlled ? "Otto's service worker to take control of this page" : '']
        .filter(Boolean)
        .join(', and for ');
      reject(
        new ApiError(
          503,
          'SERVICE_UNAVAILABLE',
          `Otto's in-browser database did not start within ${startTimeoutMs / 1000} seconds${waits ? ` (this tab waited for ${waits})` : ''}. Reload the page to try again.`,
        ),
      );
    }, startTimeoutMs);
  });
  const waitForControl = options.waitForControl ?? true;
  const controlled = (async () => {
    // Not waiting for control, on a page no service worker controls yet (a first visit): register
    // once the database answers (and `registerAfter` settles), so that installing (a precache of
    // the whole app, say) does not compete with the database's start, or the first screen's render,
    // for the network and the CPU.
    if (!waitForControl && !navigator.serviceWorker.controller) {
      await relay.started.catch(() => undefined);
      if (options.registerAfter) await Promise.race([Promise.resolve().then(options.registerAfter).catch(() => undefined), delay(5_000)]);
    }
    const controller = await controlPage({
      url: options.serviceWorkerUrl,
      scope: options.scope ?? '/',
      claimTimeoutMs: options.claimTimeoutMs ?? 4_000,
    });
    // The worker has this tab's port.
    await ports.connect(controller);
    isControlled = true;
  })();
  controlled.catch(() => undefined);
  controlledPromise = controlled;
  // The ready handshake: the database answers (here or in its owner tab) and, unless asked not to
  // wait, the service worker controls this page.
  const ready = waitForControl ? Promise.all([controlled, relay.started]) : relay.started;
  // Whichever loses the race below must not surface as an unhandled rejection.
  ready.catch(() => undefined);
  try {
    await Promise.race([ready, timedOut]);
    if (options.scenarioFromUrl !== false) await scenarioFromUrl(backend, options.logger ?? createLogger());
    return backend;
  } catch (error) {
    backend.close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function assertSupported(): void {
  const missing = [
    typeof navigator === 'undefined' || !('serviceWorker' in navigator) ? 'service workers' : undefined,
    typeof navigator === 'undefined' || !('locks' in navigator) ? 'Web Locks' : undefined,
    typeof BroadcastChannel === 'undefined' ? 'BroadcastChannel' : undefined,
    typeof Worker === 'undefined' ? 'Web Workers' : undefined,
  ].filter(Boolean);
  if (missing.length > 0) {
    const insecure = typeof window !== 'undefined' && !window.isSecureContext;
    throw new ApiError(
      503,
      'SERVICE_UNAVAILABLE',
      `This browser cannot run Otto's in-browser database: it lacks ${missing.join(', ')}${
        insecure ? ' (the page is not served over HTTPS or from localhost)' : ''
      }. Open Otto in a current Chrome, Edge, Firefox or Safari.`,
    );
  }
}

/**
 * `?otto-scenario=slow` (any scenario's name; `none` for none) puts that scenario in force before
 * the app's first call, so that a page shows its loading, empty or error state by hand.
 */
async function scenarioFromUrl(backend: BrowserBackend, logger: Logger): Promise<void> {
  const name = typeof location === 'undefined' ? null : new URL(location.href).searchParams.get('otto-scenario');
  if (!name) return;
  const none = name === 'none';
  const response = await backend
    .fetch(
      new Request(new URL("/api/__otto/scenario", location.origin), {
        method: none ? 'DELETE' : 'PUT',
        ...(none ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) }),
      }),
    )
    .catch((error: unknown) => new Response(JSON.stringify({ message: String(error) }), { status: 503 }));
  const answer = (await response.json().catch(() => ({}))) as { message?: string };
  if (response.ok) logger.warn(none ? 'No scenario in force (?otto-scenario=none).' : `The “${name}” scenario is in force (?otto-scenario=${name}): remove the parameter and load ?otto-scenario=none to end it.`);
  else logger.warn(`?otto-scenario=${name}: ${answer.message ?? `refused (${response.status})`}`);
}
