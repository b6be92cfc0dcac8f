import { fileURLToPath } from 'node:url';
import { sourceCondition } from '@otto/vitest-config';
import { defaultClientConditions, defineConfig } from 'vite';
import { benchServiceWorkers } from './build/service-workers';

const page = (name: string) => fileURLToPath(new URL(`./pages/${name}.html`, import.meta.url));

// The bench-only pages. Built into bench/dist, never into the app: the production app ships
// nothing of this. Workspace packages resolve to their source, as in the app.
export default defineConfig({
  plugins: [benchServiceWorkers()],
  resolve: { conditions: [sourceCondition, ...defaultClientConditions] },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: { input: { otto: page('otto'), direct: page('direct'), floor: page('floor'), msw: page('msw') } },
  },
  logLevel: 'warn',
});
