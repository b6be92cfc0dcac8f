import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildClassicScript } from '@otto/browser-testing';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * Emits the bench's service workers at the root of dist, each one classic script:
 * `otto-sw.js` built from the very source Otto publishes (`@otto/mock-backend/otto-sw.js`, as the
 * app's own plugin does), `floor-sw.js` (the constant-response floor), and MSW's
 * `mockServiceWorker.js` copied from the installed msw.
 */
export function benchServiceWorkers(): Plugin {
  let config: ResolvedConfig;

  const compile = async (entry: string, fileName: string) =>
    (await buildClassicScript({ root: config.root, entry, fileName, conditions: config.resolve.conditions })).code;

  return {
    name: 'otto-bench-service-workers',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'otto-sw.js', source: await compile('@otto/mock-backend/otto-sw.js', 'otto-sw.js') });
      this.emitFile({ type: 'asset', fileName: 'floor-sw.js', source: await compile('/src/sw/floor-sw.ts', 'floor-sw.js') });
      const require = createRequire(import.meta.url);
      this.emitFile({
        type: 'asset',
        fileName: 'mockServiceWorker.js',
        source: readFileSync(require.resolve('msw/mockServiceWorker.js'), 'utf8'),
      });
    },
  };
}
