// The Otto service worker as one self-contained classic script (`otto-sw.js`, served at the app
// root): the /api relay, activated at once and claiming its pages. Apps that have a service worker
// of their own install the relay in it instead (`@otto/mock-backend/service-worker`).
import { installOttoRelay, type OttoRelayScope } from './service-worker-relay';

declare const self: OttoRelayScope & {
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: Event & { waitUntil(p: Promise<unknown>): void }) => void): void;
};

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

installOttoRelay(self);
