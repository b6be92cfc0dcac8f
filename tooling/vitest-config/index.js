// Shared Vitest settings: workspace packages resolve to their TypeScript source (the
// "@otto/source" export condition), so tests need no prior build.
import { defaultClientConditions, defaultServerConditions } from 'vite';

export const sourceCondition = '@otto/source';

/** @type {import('vitest/config').UserConfig} */
export const ottoVitestConfig = {
  resolve: { conditions: [sourceCondition, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [sourceCondition, ...defaultServerConditions] } },
  test: {
    restoreMocks: true,
  },
};
