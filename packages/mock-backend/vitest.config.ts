import { nativeTestFiles, ottoVitestConfig, sharedModules } from '@otto/vitest-config';
import { configDefaults, defineConfig } from 'vitest/config';

// Browser tests (`*.browser.test.ts`) run alone, in `test:e2e` (vitest.browser.config.ts); those on a
// SQLite file (better-sqlite3) in `test:native` (vitest.native.config.ts).
export default defineConfig({
  ...ottoVitestConfig,
  test: {
    ...ottoVitestConfig.test,
    ...sharedModules,
    exclude: [...configDefaults.exclude, '**/*.browser.test.ts', ...nativeTestFiles],
    // One test PostgreSQL cluster for the files that need one (sharedTestPostgres), not one each.
    globalSetup: ['@otto/postgres-testing/global-setup'],
  },
});
