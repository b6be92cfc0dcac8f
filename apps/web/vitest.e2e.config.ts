import { ottoReporters, ottoVitestConfig } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';

// End-to-end tests drive Debian's Chromium (playwright-core) against the production build served
// by `vite preview`. One file at a time unless OTTO_E2E_WORKERS says more: each file starts its own
// browser with a fresh profile, so files may run side by side, and two at once cut the time by a
// quarter on two cores; but on a busy machine that made three tests fail (Firefox's service worker
// failing asset loads, a 10 s files wait given up, a 5 s poll), not yet understood, so the default is one.
export default defineConfig({
  ...ottoVitestConfig,
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    reporters: ottoReporters('e2e'),
    fileParallelism: true,
    maxWorkers: Number(process.env.OTTO_E2E_WORKERS ?? 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['e2e/global-setup.ts'],
  },
});
