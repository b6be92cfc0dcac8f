// The dedicated worker that owns the SQLite database (OPFS) in the tab elected by startBrowserBackend.
import '../lib/zod-config';
import { serveMockApiInWorker, type SeedData } from '@otto/mock-backend/worker';

serveMockApiInWorker({
  appVersion: __OTTO_BUILD_ID__,
  // The page may start this worker before it knows it owns the database (src/main.tsx).
  waitForOpen: true,
  // Made at build time (vite-plugin-otto-seed.ts) and precached: an empty database is filled from it.
  seed: { data: () => loadSeedData() },
}).catch(() => {
  // Already reported to the page ('failed'), which shows it; nothing more to do here.
});

async function loadSeedData(): Promise<SeedData> {
  const response = await fetch('/otto-seed.json');
  if (!response.ok) throw new Error(`Otto could not load its first-start data (/otto-seed.json answered ${response.status}).`);
  return (await response.json()) as SeedData;
}
