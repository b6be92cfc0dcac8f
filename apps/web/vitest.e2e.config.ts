import { ottoReporters, ottoVitestConfig } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';

// End-to-end tests drive Debian's Chromium (playwright-core) against the production build served
// by `vite preview`. One file at a time: each starts its own browser.
export default defineConfig({
  ...ottoVitestConfig,
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    reporters: ottoReporters('e2e'),
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['e2e/global-setup.ts'],
  },
});
