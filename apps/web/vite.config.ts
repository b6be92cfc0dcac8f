import react from '@vitejs/plugin-react';
import { sourceCondition } from '@otto/vitest-config';
import { defaultClientConditions, defineConfig } from 'vite';
import { ottoServiceWorker } from './vite-plugin-otto-sw';

export default defineConfig({
  plugins: [react(), ottoServiceWorker()],
  resolve: { conditions: [sourceCondition, ...defaultClientConditions] },
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
});
