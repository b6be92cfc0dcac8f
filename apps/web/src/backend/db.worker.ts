// The dedicated worker that owns the SQLite database (OPFS) in the tab elected by startBrowserBackend.
import '../lib/zod-config';
import { serveMockApiInWorker } from '@otto/mock-backend/worker';
import { seedFileUrl } from './seed-file';

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
}).catch(() => {
  // Already reported to the page ('failed'), which shows it; nothing more to do here.
});

async function loadSeedDatabase(): Promise<Uint8Array> {
  const response = await fetch(seedFileUrl);
  if (!response.ok) throw new Error(`Otto could not load its first-start data (${seedFileUrl} answered ${response.status}).`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  // Gzipped as built; a host that sends .gz files with Content-Encoding: gzip has unpacked it already.
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const unpacked = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(unpacked).arrayBuffer());
}
