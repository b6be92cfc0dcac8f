// The peer: MSW 2 in the browser (its own service worker, handlers in this page) serving the same
// customers from a plain in-memory array, filtered, sorted and sliced on every request the way
// mock backends usually do (src/shared/array-handlers.ts). The arrays are the very data Otto seeds
// (same seed code, same faker seed), customers and their jobs.
import { setupWorker } from 'msw/browser';
import { arrayHandlers } from '../shared/array-handlers';
import { seedArrays } from '../shared/seed-arrays';
import { showCustomerListIfAsked } from './customer-list';
import { makeMoveJobsHere, runFetchLoops } from './fetch-loops';
import './bench-window';

const params = new URLSearchParams(location.search);
const n = Number(params.get('n') ?? 500);
const fakerSeed = Number(params.get('fakerSeed') ?? 42);
const now = Number(params.get('now') ?? Date.now());

const worker = setupWorker(...arrayHandlers(seedArrays(n, true, fakerSeed, now)));

const ready = worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });

window.bench = {
  crossOriginIsolated: window.crossOriginIsolated,
  ready,
  runFetchLoops,
  makeMoveJobs: makeMoveJobsHere,
};

showCustomerListIfAsked(ready);
