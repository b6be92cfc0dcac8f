import { ottoVitestConfig, sharedModules } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';

export default defineConfig({ ...ottoVitestConfig, test: { ...ottoVitestConfig.test, ...sharedModules } });
