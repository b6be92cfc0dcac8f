import { ottoVitestConfig, sharedModules } from '@otto/vitest-config';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig({ mode: 'test', command: 'serve' }),
  defineConfig({
    ...ottoVitestConfig,
    test: { ...ottoVitestConfig.test, ...sharedModules, environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'], setupFiles: ['./vitest.setup.ts'], testTimeout: 20_000 },
  }),
);
