import { ottoReporters, ottoVitestConfig } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';

// End-to-end tests drive Debian's Chromium (playwright-core) against the production build served
// by `vite preview`. Two files at a time (OTTO_E2E_WORKERS): each starts its own browser with a
// fresh profile, and a browser test mostly waits (on the page, the service worker, the disk), so two
// at once keep two cores busy where one left them idle half the time.
export default defineConfig({
  ...ottoVitestConfig,
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    reporters: ottoReporters('e2e'),
    fileParallelism: true,
    maxWorkers: Number(process.env.OTTO_E2E_WORKERS ?? 2),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['e2e/global-setup.ts'],
  },
});
