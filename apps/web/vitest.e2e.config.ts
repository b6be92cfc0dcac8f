import { ottoReporters, ottoVitestConfig } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';
import { HeaviestFirst } from './e2e/heaviest-first.ts';

// End-to-end tests drive real browsers (Chromium through playwright-core, Firefox ESR and WebKitGTK
// in the shared flows) against the production build. Two files at a time unless OTTO_E2E_WORKERS
// says otherwise: each file starts its own browser, so files share nothing, and much of a browser
// test is waiting (a budget running out, a hand-over, a page load), which the other file's work
// fills. `OTTO_E2E=long` runs the long explorations instead (e2e/long/: the soak, the large
// import, every shared flow in Chromium): `npm run test:long`.
const long = process.env.OTTO_E2E === 'long';

export default defineConfig({
  ...ottoVitestConfig,
  test: {
    include: long ? ['e2e/long/*.e2e.test.ts'] : ['e2e/*.e2e.test.ts'],
    reporters: ottoReporters(long ? 'e2e-long' : 'e2e'),
    fileParallelism: true,
    // The files of a worker share its loaded modules (playwright-core, the harness, Vite through
    // @otto/browser-testing): each file makes its own browser, server and state in its hooks, and
    // the run is bound by CPU (decision 0041), of which a fresh import per file took about 2 s.
    isolate: false,
    maxWorkers: Number(process.env.OTTO_E2E_WORKERS ?? 2),
    sequence: { sequencer: HeaviestFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['e2e/global-setup.ts'],
  },
});
