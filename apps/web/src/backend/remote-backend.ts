import { listenForRemoteChanges } from './remote-changes';
import type { BackendHandle, BackendStatus } from './start-backend';

/**
 * Reads the `VITE_OTTO_API_BASE_URL` setting: the API's base URL, `/api` included
 * (`http://localhost:8787/api`). Answers the prefix the API client puts before `/api/…`
 * (`http://localhost:8787`), or undefined when the setting is empty.
 * @example
 * remoteApiPrefix('http://localhost:8787/api/'); // 'http://localhost:8787'
 */
export function remoteApiPrefix(setting: string | undefined): string | undefined {
  const value = setting?.trim().replace(/\/+$/, '');
  if (!value) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new Error(`VITE_OTTO_API_BASE_URL is not an http(s) URL: ${JSON.stringify(setting)}. Use one like http://localhost:8787/api.`);
  }
  return value.replace(/\/api$/, '');
}

/** How often Otto asks an unreachable server whether it is back. */
const retryEveryMs = 3_000;

/**
 * The backend handle when a server answers the API: nothing runs in the browser, and the database
 * is the server's to manage. Changes come from the server's event stream (`/api/changes`).
 * Watches the API calls: when the server cannot be reached, the status says so
 * (`unreachable: true`) and Otto asks it every few seconds until it answers again.
 * `fetch` is the fetch the API client should use (it reports what it sees, and adds the server's
 * bearer token when `token` is given: `VITE_OTTO_API_TOKEN`).
 * @example
 * const backend = remoteBackend('http://localhost:8787/api', { token: 's3cret-token' });
 * configureApiClient({ baseUrl: 'http://localhost:8787', fetch: backend.fetch });
 */
export function remoteBackend(apiBaseUrl: string, options: { token?: string } = {}): BackendHandle & { fetch: typeof fetch } {
  const { token } = options;
  const withToken = (init: RequestInit = {}): RequestInit => {
    if (!token) return init;
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    return { ...init, headers };
  };
  let status: BackendStatus = { role: 'remote', storage: 'remote' };
  const listeners = new Set<(status: BackendStatus) => void>();
  let retry: ReturnType<typeof setTimeout> | undefined;

  function setReachable(reachable: boolean): void {
    if ((status.unreachable ?? false) === !reachable) return;
    status = reachable ? { role: 'remote', storage: 'remote' } : { role: 'remote', storage: 'remote', unreachable: true };
    for (const listener of listeners) listener(status);
    if (!reachable) scheduleRetry();
  }

  function scheduleRetry(): void {
    clearTimeout(retry);
    retry = setTimeout(() => {
      globalThis
        .fetch(`${apiBaseUrl}/customers?filterJson=${encodeURIComponent('{"limit":1}')}`, withToken({ cache: 'no-store' }))
        .then(
          () => setReachable(true),
          () => scheduleRetry(),
        );
    }, retryEveryMs);
  }

  const serverOnly = (what: string) =>
    Promise.reject(new Error(`The data lives on the server at ${apiBaseUrl}; ${what} it there, not from the browser.`));
  return {
    get status() {
      return status;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onChange: (listener) => listenForRemoteChanges(apiBaseUrl, listener, token),
    deleteDatabase: () => serverOnly('delete'),
    exportDatabase: () => serverOnly('back up'),
    restoreDatabase: () => serverOnly('restore'),
    async fetch(input, init) {
      try {
        const response = await globalThis.fetch(input, withToken(init));
        setReachable(true);
        return response;
      } catch (error) {
        // An abort is the caller's; anything else is a network failure: no answer from the server.
        if (!(init?.signal?.aborted ?? false)) setReachable(false);
        throw error;
      }
    },
  };
}
