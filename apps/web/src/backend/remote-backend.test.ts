import { customerRoutes } from '@otto/api-contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { remoteApiPrefix } from './remote-backend';

const startBrowserBackend = vi.fn();
vi.mock('@otto/mock-backend/browser', async (importOriginal) => ({ ...(await importOriginal<object>()), startBrowserBackend }));

describe('remoteApiPrefix', () => {
  it('reads the API base URL, with or without /api and a trailing slash', () => {
    expect(remoteApiPrefix('http://localhost:8787/api')).toBe('http://localhost:8787');
    expect(remoteApiPrefix(' https://otto.example/team/api/ ')).toBe('https://otto.example/team');
    expect(remoteApiPrefix('http://localhost:8787')).toBe('http://localhost:8787');
    expect(remoteApiPrefix('')).toBeUndefined();
    expect(remoteApiPrefix(undefined)).toBeUndefined();
    for (const bad of ['localhost:8787/api', '/api', 'not a url']) {
      expect(() => remoteApiPrefix(bad), bad).toThrow(/VITE_OTTO_API_BASE_URL is not an http\(s\) URL/);
    }
  });
});

describe('ensureBackend with VITE_OTTO_API_BASE_URL', () => {
  beforeEach(() => {
    vi.resetModules();
    startBrowserBackend.mockReset();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it('resolves to a remote status, calls the server, and never starts the in-browser backend', async () => {
    vi.stubEnv('VITE_OTTO_API_BASE_URL', 'http://localhost:8787/api');
    const fetchMock = vi.fn(async () => Response.json([], { headers: { 'X-Total-Count': '0' } }));
    vi.stubGlobal('fetch', fetchMock);
    const { ensureBackend } = await import('./start-backend');
    const { callApi } = await import('../lib/api-client');

    const backend = await ensureBackend();
    expect(backend.status).toEqual({ role: 'remote', storage: 'remote' });
    expect(startBrowserBackend).not.toHaveBeenCalled();
    expect(window.ottoBackendStatus?.()).toEqual({ role: 'remote', storage: 'remote' });
    await expect(backend.deleteDatabase()).rejects.toThrow('The data lives on the server at http://localhost:8787/api');

    await callApi(customerRoutes.list, { filter: { queryText: 'ada' } });
    expect(fetchMock).toHaveBeenCalledWith(
      `http://localhost:8787/api/customers?filterJson=${encodeURIComponent('{"queryText":"ada"}')}`,
      expect.objectContaining({ method: 'GET' }),
    );
  });

  it('starts the in-browser backend when the setting is empty', async () => {
    vi.stubEnv('VITE_OTTO_API_BASE_URL', '');
    startBrowserBackend.mockResolvedValue({ status: { role: 'leader', storage: 'opfs' }, deleteDatabase: vi.fn() });
    const { ensureBackend } = await import('./start-backend');
    const backend = await ensureBackend();
    expect(startBrowserBackend).toHaveBeenCalledOnce();
    expect(backend.status).toEqual({ role: 'leader', storage: 'opfs' });
  });
});
