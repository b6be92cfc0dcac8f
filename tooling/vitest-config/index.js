// Shared Vitest settings: workspace packages resolve to their TypeScript source (the
// "@otto/source" export condition), so tests need no prior build.
import { defaultClientConditions, defaultServerConditions } from 'vite';

export const sourceCondition = '@otto/source';

/**
 * Reporters: the default one, plus a JSON report that `npm test` sums into one closing line.
 * @param {string} name file name of the JSON report under test-results/
 */
export function ottoReporters(name = 'unit') {
  return ['default', ['json', { outputFile: `test-results/${name}.json` }]];
}

/** @type {import('vitest/config').UserConfig} */
export const ottoVitestConfig = {
  resolve: { conditions: [sourceCondition, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [sourceCondition, ...defaultServerConditions] } },
  test: {
    restoreMocks: true,
    reporters: ottoReporters(),
    // A guard against a hang, not a speed check: the first test of a file loads SQLite's wasm, and
    // on a busy two-core machine (turbo runs two packages at once) that alone can pass 5 s.
    testTimeout: 30_000,
  },
};
