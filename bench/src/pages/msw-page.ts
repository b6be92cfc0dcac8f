// The peer: MSW 2 in the browser (its own service worker, handlers in this page) serving the same
// customers from a plain in-memory array, filtered, sorted and sliced on every request the way
// mock backends usually do. The array is the very data Otto seeds (same seed code, same faker seed).
import { seedDatabase } from '@otto/mock-backend';
import type { Customer } from '@otto/api-contract';
import type { Database } from '@otto/sqlite-store';
import { HttpResponse, http } from 'msw';
import { setupWorker } from 'msw/browser';
import { runFetchLoops } from './fetch-loops';
import './bench-window';

const params = new URLSearchParams(location.search);
const n = Number(params.get('n') ?? 500);
const fakerSeed = Number(params.get('fakerSeed') ?? 42);
const now = Number(params.get('now') ?? Date.now());

/** Seeds into an array: seedDatabase only inserts customers when jobs are off. */
function seedArray(): Customer[] {
  const customers: Customer[] = [];
  const db: Database = {
    exec() {},
    run(_sql, values) {
      const [full_name, phone, email, created_dt, modified_dt] = values as [string, string, string, number, number];
      customers.push({ id: String(customers.length + 1), full_name, phone, email, created_dt, modified_dt });
      return { changes: 1, lastInsertRowid: customers.length };
    },
    all: () => [],
    get: () => undefined,
    transaction: (fn) => fn(),
  };
  seedDatabase(db, { count: n, jobs: false, fakerSeed }, now);
  return customers;
}

const customers = seedArray();

const handlers = [
  http.get('/api/customers', ({ request }) => {
    let filter: { queryText?: unknown; limit?: unknown; offset?: unknown } = {};
    try {
      filter = JSON.parse(new URL(request.url).searchParams.get('filterJson') ?? '{}') as typeof filter;
    } catch {
      filter = {};
    }
    const query = typeof filter.queryText === 'string' ? filter.queryText.trim().toLowerCase() : '';
    const limit = typeof filter.limit === 'number' ? filter.limit : 10;
    const offset = typeof filter.offset === 'number' ? filter.offset : 0;
    const matches = query
      ? customers.filter(
          (c) =>
            c.full_name.toLowerCase().includes(query) ||
            c.email.toLowerCase().includes(query) ||
            c.phone.toLowerCase().includes(query),
        )
      : customers.slice();
    matches.sort((a, b) => b.modified_dt - a.modified_dt || Number(b.id) - Number(a.id));
    return HttpResponse.json(matches.slice(offset, offset + limit), { headers: { 'X-Total-Count': String(matches.length) } });
  }),
];

const worker = setupWorker(...handlers);

window.bench = {
  crossOriginIsolated: window.crossOriginIsolated,
  ready: worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } }),
  runFetchLoops,
};
