// The whole path: page fetch('/api/…') → otto-sw.js → this tab's relay → DB worker → api.fetch.
// The same startBrowserBackend and serveMockApiInWorker the app uses.
import { startBrowserBackend } from '@otto/mock-backend/browser';
import { runLoops } from '../shared/ops';
import { showCustomerListIfAsked } from './customer-list';
import { runFetchLoops } from './fetch-loops';
import './bench-window';

const n = Number(new URLSearchParams(location.search).get('n') ?? 500);

const started = startBrowserBackend({
    serviceWorkerUrl: '/otto-sw.js',
    scope: '/',
    // On an empty origin the DB worker seeds n customers before it answers (the memory bench's first
    // visit: about 30 s at 100 000 on the bench machine), past the default 30 s: a millisecond more
    // per customer.
    startTimeoutMs: 30_000 + n,
    createWorker: () =>
      new Worker(new URL('../workers/otto-db.worker.ts', import.meta.url), { type: 'module', name: `customers=${n}` }),
});

window.bench = {
  crossOriginIsolated: window.crossOriginIsolated,
  ready: started.then((backend) => backend.status),
  runFetchLoops,
  // The same requests without the service worker: backend.fetch goes from this tab straight to
  // the DB worker (serialize, postMessage, api.fetch, postMessage back, deserialize).
  runBackendLoops: async (plan) => {
    const backend = await started;
    return runLoops(plan, async (request) => {
      const response = await backend.fetch(
        new Request(location.origin + request.path, {
          method: request.method,
          ...(request.body ? { body: request.body, headers: { 'content-type': 'application/json' } } : {}),
        }),
      );
      await response.json();
      return response;
    });
  },
};

showCustomerListIfAsked(started);
