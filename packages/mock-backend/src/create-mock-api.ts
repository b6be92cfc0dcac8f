import { createSqliteStore } from '@otto/sqlite-store';
import { customerHandlers } from './customers/customer-handlers';
import { jobHandlers } from './jobs/job-handlers';
import { countCustomers } from './customers/customer-repository';
import { migrations } from './database/migrations';
import { seedDatabase } from './database/seed';
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
    if (options.seed !== false && countCustomers(store) === 0) {
      seeded = seedDatabase(store, options.seed ?? {}, now());
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
