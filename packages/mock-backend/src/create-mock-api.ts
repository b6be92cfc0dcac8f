import { createSqliteStore } from '@otto/sqlite-store';
import { customerHandlers } from './customers/customer-handlers';
import { jobHandlers } from './jobs/job-handlers';
import { countCustomers } from './customers/customer-repository';
import { migrations } from './database/migrations';
import { importSeedData, settleSeedDatabase } from './database/seed-data';
import { createLogger } from './logger';
import { createRouter } from './runtime/create-router';
import type { ChangeListener } from './types';
import { errorResponse } from './runtime/responses';
import type { MockApi, MockApiOptions } from './types';

/**
 * Starts the Otto mock backend: opens (or takes) a SQLite store, migrates it to the latest schema,
 * seeds it when empty, and returns an object whose `fetch` answers the API's requests.
 * @example
 * const api = await createMockApi({ seed: { count: 50, fakerSeed: 1 } });
 * const res = await api.fetch(new Request('http://localhost/api/customers'));
 * const customers = await res.json(); // the 10 most recently modified customers
 * await api.close();
 */
export async function createMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const logger = options.logger ?? createLogger();
  const now = options.now ?? Date.now;
  const ownsStore = !options.store;
  const store = options.store ?? createSqliteStore({ storage: 'memory', logger });
  const storeInfo = store.isOpen ? store.info : await store.open();
  let seeded = { customers: 0, jobs: 0 };
  try {
    store.migrate(migrations);
    // A first-start database file the store was created with (`newDatabase`): only its dates move.
    const settled = store.transaction(() => settleSeedDatabase(store, now()));
    if (settled) seeded = settled;
    else if (options.seed !== false && countCustomers(store) === 0) {
      const seed = options.seed ?? {};
      if ('file' in seed) {
        const bytes = typeof seed.file === 'function' ? await seed.file() : seed.file;
        if (!store.replaceDatabase) throw new Error('This store cannot take a whole database file; seed it with { data } instead.');
        await store.replaceDatabase(bytes);
        store.migrate(migrations);
        seeded = store.transaction(() => settleSeedDatabase(store, now())) ?? { customers: countCustomers(store), jobs: 0 };
      } else if ('data' in seed) {
        // Made ahead of time: no data generator needed here (the browser ships none).
        const data = typeof seed.data === 'function' ? await seed.data() : seed.data;
        const at = now();
        seeded = store.transaction(() => importSeedData(store, data, at));
      } else {
        // faker is loaded only to seed, so that a bundle that never seeds this way leaves it out.
        const { seedDatabase } = await import('./database/seed');
        seeded = seedDatabase(store, seed, now());
      }
    }
  } catch (error) {
    if (ownsStore) await store.close();
    throw error;
  }
  const listeners = new Set<ChangeListener>(options.onChange ? [options.onChange] : []);
  const publish: ChangeListener = (event) => {
    for (const listener of [...listeners]) listener(event);
  };
  const route = createRouter({ handlers: [...customerHandlers, ...jobHandlers], db: store, now, logger, publish });
  let closed = false;

  return {
    store,
    info: { ...storeInfo, seeded, schemaVersion: store.userVersion() },
    async fetch(request) {
      if (closed) {
        return errorResponse(503, { code: 'SERVICE_UNAVAILABLE', message: 'The mock backend has been closed.' });
      }
      return route(request);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      if (ownsStore) await store.close();
    },
  };
}
