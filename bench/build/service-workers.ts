import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build, type Plugin, type ResolvedConfig } from 'vite';

/**
 * Emits the bench's service workers at the root of dist, each one classic script:
 * `otto-sw.js` built from the very source Otto publishes (`@otto/mock-backend/otto-sw.js`, as the
 * app's own plugin does), `floor-sw.js` (the constant-response floor), and MSW's
 * `mockServiceWorker.js` copied from the installed msw.
 */
export function benchServiceWorkers(): Plugin {
  let config: ResolvedConfig;

  async function compile(entry: string, fileName: string): Promise<string> {
    const result = await build({
      configFile: false,
      envDir: false,
      logLevel: 'warn',
      root: config.root,
      publicDir: false,
      resolve: { conditions: [...config.resolve.conditions] },
      build: {
        write: false,
        minify: true,
        sourcemap: false,
        target: 'es2022',
        modulePreload: false,
        copyPublicDir: false,
        reportCompressedSize: false,
        rollupOptions: { input: entry, output: { format: 'iife', entryFileNames: fileName } },
      },
    });
    for (const output of Array.isArray(result) ? result : [result]) {
      if (!('output' in output)) continue;
      for (const chunk of output.output) if (chunk.type === 'chunk' && chunk.isEntry) return chunk.code;
    }
    throw new Error(`bench: building ${entry} produced no script.`);
  }

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
