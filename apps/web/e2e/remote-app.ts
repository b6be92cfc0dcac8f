// The app built for remote mode (VITE_OTTO_API_BASE_URL, and VITE_OTTO_API_TOKEN when given) or sync
// mode (VITE_OTTO_SYNC_URL), for the e2e tests that point the app at otto-mock-server. Built once per build of the app, with
// placeholders for the server's address and token that the test's static server swaps for each
// test's own (five builds of about 12 s each used to be made, one per server and token).
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { contentSecurityPolicy } from '../content-security-policy';
import { startStaticServer } from './static-server';

const appRoot = fileURLToPath(new URL('..', import.meta.url));
const placeholderOrigin = 'http://otto-remote-api.invalid';
const placeholderUrl = `${placeholderOrigin}/api`;
const placeholderToken = 'otto-remote-api-token-placeholder';

export interface RemoteApp {
  /** Where the built app is served. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The remote-mode build of this app, made once for the local build in dist/ (its page names every
 * hashed file, so it changes with the source) and kept in the temporary directory: made in a
 * folder of its own and renamed into place, so test files that race to make it each get a whole one.
 */
async function remoteBuild(mode: 'remote' | 'sync' = 'remote'): Promise<string> {
  const key = createHash('sha256').update(readFileSync(join(appRoot, 'dist', 'app.html'))).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `otto-${mode}-build-${key}`);
  if (existsSync(join(dir, 'app.html'))) return dir;
  const making = mkdtempSync(join(tmpdir(), `otto-${mode}-making-`));
  const setting = mode === 'remote' ? 'VITE_OTTO_API_BASE_URL' : 'VITE_OTTO_SYNC_URL';
  process.env[setting] = placeholderUrl;
  process.env.VITE_OTTO_API_TOKEN = placeholderToken;
  try {
    await build({ root: appRoot, logLevel: 'warn', build: { outDir: making, emptyOutDir: true, sourcemap: false } });
  } finally {
    delete process.env[setting];
    delete process.env.VITE_OTTO_API_TOKEN;
  }
  try {
    renameSync(making, dir);
  } catch (error) {
    // Another test file made it first: theirs is as good.
    if (!existsSync(join(dir, 'app.html'))) throw error;
    rmSync(making, { recursive: true, force: true });
  }
  return dir;
}

/** Serves the app pointed at `apiUrl` (with `token` when given); `close()` stops it. */
export async function serveRemoteApp(apiUrl: string, token?: string): Promise<RemoteApp> {
  return serveBuild(await remoteBuild('remote'), apiUrl, token);
}

/**
 * Serves the app in sync mode (`VITE_OTTO_SYNC_URL`, decision 0163): its own copy in the browser,
 * synced with the team server at `apiUrl`; `close()` stops it.
 */
export async function serveSyncApp(apiUrl: string, token?: string): Promise<RemoteApp> {
  return serveBuild(await remoteBuild('sync'), apiUrl, token);
}

async function serveBuild(dir: string, apiUrl: string, token: string | undefined): Promise<RemoteApp> {
  const site = await startStaticServer(dir, 0, {
    replace: [
      [placeholderUrl, apiUrl],
      [placeholderOrigin, new URL(apiUrl).origin],
      [placeholderToken, token ?? ''],
    ],
    headers: { 'content-security-policy': contentSecurityPolicy(apiUrl) },
  });
  return { url: site.url, close: () => site.close() };
}
