import { ApiError } from '../runtime/api-error';
import { claimClientsType, type ServiceWorkerControlMessage } from './protocol';

const reloadGuardKey = 'otto-sw-control-reload';
const activateTimeoutMs = 10_000;

export interface ControlPageOptions {
  url: string | URL;
  scope: string;
  claimTimeoutMs: number;
}

/**
 * Registers the service worker and resolves once it controls this page. A first visit is
 * controlled when the new worker activates and claims its clients. A page loaded with Shift+Reload
 * is never controlled by itself (the browser bypasses the worker for it), so the active worker is
 * asked to claim it; one guarded reload is the last resort.
 */
export async function controlPage(options: ControlPageOptions): Promise<ServiceWorker> {
  const container = navigator.serviceWorker;
  const controlled = new Promise<ServiceWorker>((resolve) => {
    if (container.controller) resolve(container.controller);
    container.addEventListener('controllerchange', function onChange() {
      if (!container.controller) return;
      container.removeEventListener('controllerchange', onChange);
      resolve(container.controller);
    });
  });

  // Registered already (any visit after the first): use it as it is. Registering again would wait
  // behind the browser's own update check, which hangs as long as a hanging network does.
  const scriptUrl = new URL(options.url, location.href).href;
  const existing = await container.getRegistration(options.scope);
  const registration =
    existing && (existing.active ?? existing.waiting ?? existing.installing)?.scriptURL === scriptUrl
      ? existing
      : await register(options.url, options.scope);
  if (!container.controller) {
    const active = registration.active ?? (await Promise.race([activeWorkerOf(registration), delay(activateTimeoutMs)]));
    if (!active) {
      throw new ApiError(
        503,
        'SERVICE_UNAVAILABLE',
        `The Otto service worker (${String(options.url)}) did not activate within ${activateTimeoutMs / 1000} seconds. Reload the page to try again.`,
      );
    }
    if (!container.controller) active.postMessage({ type: claimClientsType } satisfies ServiceWorkerControlMessage);
  }

  const controller = await Promise.race([controlled, delay(options.claimTimeoutMs)]);
  if (controller) {
    sessionStorage.removeItem(reloadGuardKey);
    return controller;
  }
  if (sessionStorage.getItem(reloadGuardKey) === null) {
    sessionStorage.setItem(reloadGuardKey, String(Date.now()));
    location.reload();
    return new Promise<never>(() => {});
  }
  sessionStorage.removeItem(reloadGuardKey);
  throw new ApiError(
    503,
    'SERVICE_UNAVAILABLE',
    'The Otto service worker does not control this page, even after a reload, so the app cannot reach its in-browser database. Close the tab and open Otto again.',
  );
}

/**
 * Registers the script; when the browser refuses it, says why in words (a missing `otto-sw.js` is
 * otherwise only a 404 in the network log), in the console and in the error.
 */
async function register(url: string | URL, scope: string): Promise<ServiceWorkerRegistration> {
  try {
    return await navigator.serviceWorker.register(url, { scope, type: 'classic', updateViaCache: 'none' });
  } catch (error) {
    // A missing file is a 404, or the app's HTML page where a dev server falls back to it.
    const answered = await fetch(url, { cache: 'no-store' }).then(
      (res) => {
        const type = res.headers.get('content-type') ?? 'no content type';
        return res.ok && /javascript/.test(type) ? undefined : `${res.status} (${type.split(';')[0]})`;
      },
      () => undefined,
    );
    const fix = 'Copy it into your static folder with `npx otto-mock-backend init public` (your public folder), or add ottoMockBackend() from @otto/mock-backend/vite to vite.config, then reload.';
    const message =
      answered === undefined
        ? `The Otto service worker ${String(url)} could not be registered: ${(error as Error).message}`
        : `The Otto service worker ${String(url)} is missing: the server answered ${answered} instead of the script. ${fix}`;
    console.error(`[otto] ${message}`);
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', message, undefined, { cause: error });
  }
}

/** The registration's worker once it is active (a first install goes installing → activated). */
function activeWorkerOf(registration: ServiceWorkerRegistration): Promise<ServiceWorker> {
  return new Promise((resolve) => {
    const check = () => {
      if (registration.active) {
        resolve(registration.active);
        return true;
      }
      return false;
    };
    if (check()) return;
    const worker = registration.installing ?? registration.waiting;
    worker?.addEventListener('statechange', check);
    registration.addEventListener('updatefound', () => registration.installing?.addEventListener('statechange', check));
  });
}

/** Resolves with `undefined` after `ms` milliseconds (the losing side of a bounded wait). */
export function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}
