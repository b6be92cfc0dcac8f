// Serves the production build (`vite build` runs first: turbo's test:e2e depends on build) with
// `vite preview` on a free port, and gives its URL to the tests as inject('baseUrl').
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const appRoot = fileURLToPath(new URL('..', import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(new URL('../dist/index.html', import.meta.url))) {
    throw new Error('apps/web/dist is missing: run `pnpm exec vite build` in apps/web before the e2e tests.');
  }
  const server = await preview({
    root: appRoot,
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not report its port.');
  project.provide('baseUrl', `http://127.0.0.1:${address.port}`);
  return async () => {
    await server.close();
  };
}
