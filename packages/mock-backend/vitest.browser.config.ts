import { ottoReporters, ottoVitestConfig } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';

// Tests that drive Debian's Chromium (playwright-core, CHROMIUM_PATH) against a real otto-mock-server.
export default defineConfig({
  ...ottoVitestConfig,
  test: {
    include: ['test/**/*.browser.test.ts'],
    reporters: ottoReporters('browser'),
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
