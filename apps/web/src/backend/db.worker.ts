// The dedicated worker that owns the SQLite database (OPFS) in the tab elected by startBrowserBackend.
import '../lib/zod-config';
import { fetchDatabaseFile, serveMockApiInWorker } from '@otto/mock-backend/worker';
import { keptScreenCache } from './kept-screen-cache';
import { seedFileUrl } from './seed-file';

const syncUrl = import.meta.env.VITE_OTTO_SYNC_URL?.trim();
const syncToken = import.meta.env.VITE_OTTO_API_TOKEN?.trim();

serveMockApiInWorker({
  appVersion: __OTTO_BUILD_ID__,
  // The page may start this worker before it knows it owns the database (src/main.tsx).
  waitForOpen: true,
  // The page compiles sqlite3.wasm while this script loads (create-db-worker.ts).
  compiledSqliteFromPage: true,
  // On a first visit the page fetches the first-start file too (create-db-worker.ts).
  seedFileFromPage: true,
  // Made at build time (vite-plugin-otto-seed.ts) and precached: a database that does not exist
  // yet starts as this file (migrated and filled already; only its dates move to now).
  seed: { file: () => loadSeedDatabase() },
  // The data stamp the kept first screen is checked against (kept-screen.ts, decision 0009).
  dataStampCache: keptScreenCache,
  // Sync mode: this copy syncs with the team server (decision 0163).
  ...(syncUrl ? { sync: { serverUrl: syncUrl, ...(syncToken ? { token: syncToken } : {}) } } : {}),
}).catch(() => {
  // Already reported to the page ('failed'), which shows it; nothing more to do here.
});

/** The first-start file (gzipped as built), fetched here when the page sent none. */
function loadSeedDatabase(): Promise<Uint8Array> {
  return fetchDatabaseFile(seedFileUrl).catch((error: unknown) => {
    throw new Error(`Otto could not load its first-start data (${error instanceof Error ? error.message : String(error)}).`);
  });
}
