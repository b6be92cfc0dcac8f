import react from '@vitejs/plugin-react';
import { sourceCondition } from '@otto/vitest-config';
import { defaultClientConditions, defineConfig, loadEnv } from 'vite';
import { ottoContentSecurityPolicy } from './content-security-policy.ts';
import { ottoServiceWorker } from './vite-plugin-otto-sw.ts';

export default defineConfig(({ mode, command }) => ({
  define: { __OTTO_BUILD_ID__: JSON.stringify(command === 'build' ? `0.0.0+${Date.now().toString(36)}` : 'dev') },
  plugins: [react(), ottoServiceWorker(), ottoContentSecurityPolicy(loadEnv(mode, process.cwd()).VITE_OTTO_API_BASE_URL || undefined)],
  resolve: { conditions: [sourceCondition, ...defaultClientConditions] },
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
}));
