import { ottoReporters } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ottoReporters('consumer'),
    // fixtures/ holds the consumer app's own tests: the consumer project runs them (with its install).
    include: ['test/**/*.test.ts'],
    // npm install from the registry, a vite build, a server and the contract kit.
    hookTimeout: 400_000,
    testTimeout: 90_000,
  },
});
