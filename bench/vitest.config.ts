import { ottoVitestConfig } from '@otto/vitest-config';
import { defineConfig } from 'vitest/config';

export default defineConfig(ottoVitestConfig);
