// Otto's service worker (`/otto-sw.js`): the /api relay to the in-browser database, and the app
// shell precached so that Otto opens, moves between screens and saves with no network at all.
// Navigations are answered from the cache first (never delayed by a slow or hanging network); a
// new build is found by the browser's update check, installs in the background and waits until
// a tab asks it to take over (the "A new version of Otto is ready" notice). See docs/decisions/0007.
import { installOttoRelay, skipWaitingType, type OttoRelayScope } from '@otto/mock-backend/service-worker';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: OttoRelayScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'activate', listener: (event: Event & { waitUntil(p: Promise<unknown>): void }) => void): void;
};

// First, so that /api requests are answered by the database and never reach the precache.
installOttoRelay(self);

const manifest = self.__WB_MANIFEST;
precacheAndRoute(manifest);
cleanupOutdatedCaches();
// `/` is the static landing page (precached as index.html); every other page is the app, the same
// document: deep links (/biz/customers/edit/42) open offline too. (The dev server precaches
// nothing: its pages come from the network.)
if (manifest.length > 0) {
  registerRoute(new NavigationRoute(createHandlerBoundToURL('/app.html'), { denylist: [/^\/api\//, /^\/(index\.html)?$/] }));
}

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === skipWaitingType) void self.skipWaiting();
});
