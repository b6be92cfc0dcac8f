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

/**
 * The backend handle when a server answers the API: nothing runs in the browser, and the database
 * is the server's to manage. Changes come from the server's event stream (`/api/changes`).
 * @example
 * const backend = remoteBackend('http://localhost:8787/api');
 */
export function remoteBackend(apiBaseUrl: string): BackendHandle {
  const status: BackendStatus = { role: 'remote', storage: 'remote' };
  const serverOnly = (what: string) =>
    Promise.reject(new Error(`The data lives on the server at ${apiBaseUrl}; ${what} it there, not from the browser.`));
  return {
    status,
    subscribe: () => () => {},
    onChange: (listener) => listenForRemoteChanges(apiBaseUrl, listener),
    deleteDatabase: () => serverOnly('delete'),
    exportDatabase: () => serverOnly('back up'),
    restoreDatabase: () => serverOnly('restore'),
  };
}
