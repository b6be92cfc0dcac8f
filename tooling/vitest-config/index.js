// Shared Vitest settings: workspace packages resolve to their TypeScript source (the
// "@otto/source" export condition), so tests need no prior build.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { defaultClientConditions, defaultServerConditions } from 'vite';

export const sourceCondition = '@otto/source';

/**
 * Writes test-results/durations/<name>.json: each test file's whole time (import, setup, hooks and
 * tests), which `npm test` prints after the browser tests. Vitest's JSON report has no such figure:
 * its file times span the tests alone, without the hooks that start servers and browsers.
 */
class FileDurations {
  /** @param {string} name */
  constructor(name) {
    this.name = name;
    this.root = process.cwd();
  }

  /** @param {import('vitest/node').Vitest} vitest */
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  /** @param {ReadonlyArray<import('vitest/node').TestModule>} testModules */
  onTestRunEnd(testModules) {
    const files = testModules.map((module) => {
      const d = module.diagnostic();
      return { file: module.moduleId, ms: Math.round(d.prepareDuration + d.collectDuration + d.setupDuration + d.duration), state: module.state() };
    });
    const dir = join(this.root, 'test-results', 'durations');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${this.name}.json`), `${JSON.stringify(files, null, 2)}\n`);
  }
}

/**
 * Reporters: the default one, a JSON report that `npm test` sums into one closing line, and each
 * file's duration (test-results/durations/).
 * @param {string} name file name of the JSON report under test-results/
 */
export function ottoReporters(name = 'unit') {
  return ['default', ['json', { outputFile: `test-results/${name}.json` }], new FileDurations(name)];
}

/**
 * Test files of one package share each Vitest worker's modules (`isolate: false`): SQLite's wasm,
 * zod's schemas, React and the app are loaded once per worker instead of once per file. Every test
 * makes its own backend, store and rendered app, so nothing a file does reaches the next (file
 * order shuffled, they pass). sqlite-store keeps Vitest's default: its loader test needs the
 * module fresh.
 * The mock backend's tests took 137 s of wall time and 144 s of CPU isolated, 73 s and 63 s shared;
 * the app's 43 s and 17 s (decision 0041).
 */
export const sharedModules = { isolate: false };

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

/**
 * Test files that open a SQLite file through better-sqlite3 (the HTTP server's and the Node store's).
 * They run in their own task, `test:native`, after better-sqlite3's native part is built (`npm test`
 * builds it beside the other tests on a new machine), so that no test task holds a turbo lane
 * while it waits for the compiler (decision 0041). `pnpm test:native` in the package runs them.
 */
export const nativeTestFiles = ['**/node-sqlite-store.test.ts', '**/node-server.test.ts', '**/server-soak.test.ts'];

/**
 * Resolves once better-sqlite3's native part is built. `npm test` builds it on a new machine (about
 * 100 s) beside the first tests rather than before them, and names its marker in OTTO_NATIVE_MODULE;
 * a test file that opens a SQLite file waits here (`beforeAll(nativeModuleReady, nativeModuleWaitMs)`),
 * the others run meanwhile. Without the variable (built before, or a test run by hand) it resolves at once.
 */
export async function nativeModuleReady() {
  const marker = process.env.OTTO_NATIVE_MODULE;
  if (!marker) return;
  while (!existsSync(`${marker}.ready`)) {
    if (existsSync(`${marker}.failed`)) throw new Error(readFileSync(`${marker}.failed`, 'utf8'));
    // The marker's folder is gone once `npm test` has reported the build: nothing to wait for.
    if (!existsSync(dirname(marker))) return;
    await sleep(250);
  }
}

/** How long a file's `beforeAll(nativeModuleReady)` may wait: the build from source, on a busy machine. */
export const nativeModuleWaitMs = 600_000;
