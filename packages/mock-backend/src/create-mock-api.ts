import { customerHandlers } from './customers/customer-handlers';
import { jobHandlers } from './jobs/job-handlers';
import { invoiceHandlers } from './invoices/invoice-handlers';
import { importHandlers } from './imports/import-handlers';
import { reportHandlers } from './reports/report-handlers';
import { syncHandlers } from './sync/sync-handlers';
import { withSyncPush } from './sync/sync-push';
import { createLogger } from './logger';
import { createChangeListeners } from './runtime/change-listeners';
import { changeLogOffSql, changeLogOnSql } from './sync/sync-log';
import { createRouter } from './runtime/create-router';
import { withControl } from './runtime/control-routes';
import { compileExtensionRoutes } from './runtime/extensions';
import { errorResponse } from './runtime/responses';
import { createScenarios, memoryShelf } from './runtime/scenarios';
import { sqliteDatabase } from './sql/sqlite-database';
import type { SqliteStore } from '@otto/sqlite-store';
import type { ApiDatabase, ApiOn, MockApi, MockApiOnDatabaseOptions, MockApiOptions, MockChangeEvent } from './types';

/** How far back `seedMoment` may be: a page shows its first screen in its first seconds. */
const seedMomentWindowMs = 60_000;

/**
 * Starts the Otto mock backend: opens its database (a SQLite store, or the `database` given, such
 * as PostgreSQL's), migrates it to the latest schema, seeds it when empty, and returns an object
 * whose `fetch` answers the API's requests. The one composition root of the API, whichever
 * database it runs on (decision 0122).
 * @example
 * const api = await createMockApi({ seed: { count: 50, fakerSeed: 1 } });
 * const res = await api.fetch(new Request('http://localhost/api/customers'));
 * const customers = await res.json(); // the 10 most recently modified customers
 * await api.close();
 */
export function createMockApi(options?: MockApiOptions): Promise<MockApi>;
export function createMockApi<Shown extends object>(options: MockApiOnDatabaseOptions<Shown>): Promise<ApiOn<Shown>>;
export async function createMockApi(options: MockApiOptions & { database?: ApiDatabase<object> } = {}): Promise<ApiOn<object>> {
  const logger = options.logger ?? createLogger();
  const now = options.now ?? Date.now;
  if (options.database && options.store) throw new TypeError('Give either database or store, not both.');
  // The moment a first-start file's dates move to: the caller's, when it may have shown them
  // already (a page that opened a moment ago), else now.
  const seedMoment = () => {
    const at = now();
    const chosen = options.seedMoment;
    return chosen !== undefined && chosen <= at && at - chosen <= seedMomentWindowMs ? chosen : at;
  };
  // Checked before anything opens: a route on one of Otto's paths is a mistake in the code.
  const extensionRoutes = compileExtensionRoutes(options.extensions ?? []);
  // Otto's events and, with extensions, the entities your routes name. A listener's failure must
  // not turn a saved write into an error answer, nor keep the event from the other listeners.
  const feed = createChangeListeners(options.onChange, (error) => logger.error('A change-feed listener failed', error));
  const database: ApiDatabase<object> = options.database ?? sqliteDatabase(options.store);
  const opened = await database.open({
    seed: options.seed,
    now,
    seedMoment,
    logger,
    extensions: options.extensions ?? [],
    tell: (event) => feed.tell(event),
  });
  const publish = (event: MockChangeEvent): void => {
    feed.tell(event);
    opened.publish?.(event);
  };
  // The change log (decision 0167): off, its horizon is past any position, so a pull answers with
  // everything; on again, it is complete from now on.
  const changeLog = options.changeLog !== false;
  await opened.sql.transaction((db) => db.run(changeLog ? changeLogOnSql : changeLogOffSql));
  const route = createRouter({
    changeLog,
    extensionRoutes,
    handlers: [...customerHandlers, ...jobHandlers, ...importHandlers, ...reportHandlers, ...invoiceHandlers, ...syncHandlers],
    sql: opened.sql,
    db: opened.extensionDb,
    now,
    logger,
    publish,
  });
  // The control routes (/api/__otto/…): scenarios, fixtures and snapshots, for tests and stories.
  const shownStore = (opened.shown as { store?: SqliteStore }).store;
  const shelf = options.controlShelf ?? memoryShelf();
  const controls = options.testControls !== false;
  const scenarios = options.applyScenarios === false || !controls ? undefined : createScenarios(options.scenarios, shelf);
  // A push sends each of its writes through everything a request over HTTP goes through.
  const answer = withSyncPush(withControl({ scenarios, store: shownStore, now, publish, shelf, off: !controls }, route));
  let closing: Promise<void> | undefined;

  return {
    ...opened.shown,
    async fetch(request) {
      if (closing) {
        return errorResponse(503, { code: 'SERVICE_UNAVAILABLE', message: 'The mock backend has been closed.' });
      }
      return answer(request);
    },
    onChange: feed.subscribe,
    close() {
      closing ??= opened.close();
      return closing;
    },
  };
}
