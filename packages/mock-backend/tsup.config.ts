import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The page checks that the service worker it talks to was built from the same version (src/version.ts).
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const define = { __OTTO_MOCK_BACKEND_VERSION__: JSON.stringify(version) };

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      browser: 'src/browser/index.ts',
      worker: 'src/browser/worker.ts',
      'service-worker': 'src/browser/service-worker-entry.ts',
      node: 'src/node/index.ts',
      cli: 'src/node/cli.ts',
      vite: 'src/vite/index.ts',
    },
    // The CLI (`otto-mock-server`) is a program, not an import: it has no types.
    dts: {
      entry: { index: 'src/index.ts', browser: 'src/browser/index.ts', worker: 'src/browser/worker.ts', 'service-worker': 'src/browser/service-worker-entry.ts', node: 'src/node/index.ts', vite: 'src/vite/index.ts' },
    },
    format: ['esm'],
    // Both builds write to dist/ at the same time: keep the service worker the other one writes.
    clean: ['!otto-sw.js', '!otto-sw.js.map'],
    sourcemap: true,
    define,
    target: 'es2022',
  },
  {
    // The service worker: one self-contained classic script (the msw mockServiceWorker.js model),
    // for consumers to copy to their app root.
    entry: { 'otto-sw': 'src/browser/service-worker.ts' },
    banner: { js: `/* Otto's service worker, from @otto/mock-backend ${version}. Do not edit: \`npx otto-mock-backend init\` (or its postinstall) rewrites it. */` },
    format: ['iife'],
    outExtension: () => ({ js: '.js' }),
    platform: 'browser',
    noExternal: [/.*/],
    dts: false,
    clean: false,
    sourcemap: true,
    define,
    target: 'es2022',
  },
]);
