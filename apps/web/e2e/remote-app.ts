// The app built for remote mode (VITE_OTTO_API_BASE_URL, and VITE_OTTO_API_TOKEN when given),
// served by `vite preview` on a free port: the e2e tests that point the app at otto-mock-server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';

const appRoot = fileURLToPath(new URL('..', import.meta.url));

export interface RemoteApp {
  /** Where the built app is served. */
  readonly url: string;
  close(): Promise<void>;
}

/** Builds the app pointed at `apiUrl` and serves it; `close()` stops it and removes the build. */
export async function serveRemoteApp(apiUrl: string, token?: string): Promise<RemoteApp> {
  const outDir = mkdtempSync(join(tmpdir(), 'otto-remote-build-'));
  process.env.VITE_OTTO_API_BASE_URL = apiUrl;
  if (token) process.env.VITE_OTTO_API_TOKEN = token;
  try {
    await build({ root: appRoot, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
  } finally {
    delete process.env.VITE_OTTO_API_BASE_URL;
    delete process.env.VITE_OTTO_API_TOKEN;
  }
  const site = await preview({ root: appRoot, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, open: false } });
  const address = site.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not report its port.');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await site.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
