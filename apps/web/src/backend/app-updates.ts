// A new build of Otto, found by the service worker's update check: it installs in the background
// and waits. Every open tab then offers "A new version of Otto is ready" with a Reload button; the
// tab whose button is pressed lets the new version take over and reloads. Nothing reloads by itself.
import { skipWaitingType } from '@otto/mock-backend/browser';

/** Message that tells a waiting service worker to take over (handled in src/otto-sw.ts). */
const skipWaitingMessage = { type: skipWaitingType };
/** How often a tab left open asks the server for a new build. */
const checkEveryMs = 30 * 60_000;

type Listener = (ready: boolean) => void;

let ready = false;
let reloading = false;
const listeners = new Set<Listener>();
let watching: Promise<void> | undefined;

function setReady(): void {
  if (ready) return;
  ready = true;
  for (const listener of listeners) listener(true);
}

/** Starts watching this page's service worker registration for a new version (once per page). */
function watch(): Promise<void> {
  watching ??= (async () => {
    const container = navigator.serviceWorker;
    if (!container) return;
    // Once a worker is active: on a first visit the page registers it only after the first screen
    // has shown (start-backend.ts), later than this runs.
    const registration = await container.ready;
    const hadController = Boolean(container.controller);
    const track = (worker: ServiceWorker | null) => {
      if (!worker) return;
      const check = () => {
        // The first install on a fresh visit is no update: only a worker waiting behind an active one is.
        if (worker.state === 'installed' && registration.active && container.controller) setReady();
      };
      check();
      worker.addEventListener('statechange', check);
    };
    track(registration.waiting);
    track(registration.installing);
    registration.addEventListener('updatefound', () => track(registration.installing));
    container.addEventListener('controllerchange', () => {
      if (reloading) {
        window.location.reload();
        return;
      }
      // Another tab let the new version take over: this tab runs the old code until it reloads.
      if (hadController) setReady();
    });
    const check = () => void registration.update().catch(() => undefined);
    setInterval(check, checkEveryMs);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') check();
    });
  })().catch(() => undefined);
  return watching;
}

/**
 * Calls `listener(true)` once a new version of Otto is installed and waiting (or has taken over
 * from another tab); returns the unsubscribe function.
 * @example
 * const stop = onUpdateReady(() => setUpdateReady(true));
 */
export function onUpdateReady(listener: Listener): () => void {
  listeners.add(listener);
  void watch();
  if (ready) listener(true);
  return () => listeners.delete(listener);
}

/**
 * Lets the waiting version take over and reloads this tab on it (a tab with unsaved changes asks
 * first, through its beforeunload guard).
 * @example
 * <Button onClick={applyUpdate}>Reload</Button>
 */
export async function applyUpdate(): Promise<void> {
  const registration = await navigator.serviceWorker?.getRegistration();
  const waiting = registration?.waiting;
  if (!waiting) {
    window.location.reload();
    return;
  }
  reloading = true;
  waiting.postMessage(skipWaitingMessage);
  // Chromium activates the new worker only once the old one has no request in flight, and may
  // leave it waiting when a request arrives at that moment: ask again until it takes over.
  let tries = 0;
  const retry = setInterval(() => {
    const still = registration?.waiting;
    if (!still || ++tries > 10) clearInterval(retry);
    else still.postMessage(skipWaitingMessage);
  }, 2_000);
}
