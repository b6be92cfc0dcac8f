import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      browser: 'src/browser/index.ts',
      worker: 'src/browser/worker.ts',
      'service-worker': 'src/browser/service-worker-entry.ts',
      node: 'src/node/index.ts',
      cli: 'src/node/cli.ts',
    },
    // The CLI (`otto-mock-server`) is a program, not an import: it has no types.
    dts: {
      entry: { index: 'src/index.ts', browser: 'src/browser/index.ts', worker: 'src/browser/worker.ts', 'service-worker': 'src/browser/service-worker-entry.ts', node: 'src/node/index.ts' },
    },
    format: ['esm'],
    // Both builds write to dist/ at the same time: keep the service worker the other one writes.
    clean: ['!otto-sw.js', '!otto-sw.js.map'],
    sourcemap: true,
    target: 'es2022',
  },
  {
    // The service worker: one self-contained classic script (the msw mockServiceWorker.js model),
    // for consumers to copy to their app root.
    entry: { 'otto-sw': 'src/browser/service-worker.ts' },
    format: ['iife'],
    outExtension: () => ({ js: '.js' }),
    platform: 'browser',
    noExternal: [/.*/],
    dts: false,
    clean: false,
    sourcemap: true,
    target: 'es2022',
  },
]);
