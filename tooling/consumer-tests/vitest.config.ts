import { ottoReporters } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ottoReporters('consumer'),
    // npm install from the registry, a vite build, a server and the contract kit.
    hookTimeout: 180_000,
    testTimeout: 90_000,
  },
});
