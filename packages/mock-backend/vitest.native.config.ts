import { nativeTestFiles, ottoReporters, ottoVitestConfig } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';

// The tests that open a SQLite file through better-sqlite3: `test:native`, once its native part is built.
export default defineConfig({
  ...ottoVitestConfig,
  test: { ...ottoVitestConfig.test, include: nativeTestFiles, reporters: ottoReporters('native') },
});
