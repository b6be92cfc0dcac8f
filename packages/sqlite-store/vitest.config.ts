import { nativeTestFiles, ottoVitestConfig } from '@otto/vitest-config';
import { configDefaults, defineConfig } from 'vitest/config';

// The Node store's test opens a SQLite file through better-sqlite3: it runs in `test:native`.
export default defineConfig({ ...ottoVitestConfig, test: { ...ottoVitestConfig.test, exclude: [...configDefaults.exclude, ...nativeTestFiles] } });
