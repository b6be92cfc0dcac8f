// Remote and team mode: a server that refuses the token (401) or the page (403) is said in words
// naming the setting to check, and a form keeps what was typed. A real otto-mock-server on
// 127.0.0.1 that wants a token answers; the app is the real routes.
import { customerRoutes } from '@otto/api-contract';
import { createMockServer, type MockServer } from '@otto/mock-backend/node';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { remoteBackend } from '../../backend/remote-backend';
import { callApi, configureApiClient } from '../../lib/api-client';
import { fakeBackendHandle } from '../../test/fake-backend-handle';
import { renderApp } from '../../test/render-app';

vi.mock('../../backend/start-backend', () => ({ ensureBackend: async () => fakeBackendHandle({ role: 'remote', storage: 'remote' }) }));

const serverToken = 'the-team-token-1234';
let server: MockServer;
let prefix: string;

beforeAll(async () => {
  server = await createMockServer({ port: 0, seed: { count: 3, fakerSeed: 1 }, token: serverToken, logger: { debug() {}, info() {}, warn() {}, error() {} } as never });
  prefix = server.url.replace(/\/api$/, '');
});
afterAll(() => server.close());
afterEach(() => configureApiClient({ baseUrl: '', tokenGiven: false }));

/** Points the app's API client at the server as start-backend does in remote mode. */
function useServer(token: string | undefined, extraHeaders: Record<string, string> = {}) {
  const backend = remoteBackend(`${prefix}/api`, token ? { token } : {});
  configureApiClient({
    baseUrl: prefix,
    tokenGiven: token !== undefined,
    fetch: (input, init) => backend.fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...extraHeaders } }),
  });
}

describe('a server that refuses the call', () => {
  it('says which setting to check when the build sends no token (401)', async () => {
    useServer(undefined);
    await expect(callApi(customerRoutes.list)).rejects.toMatchObject({
      kind: 'HTTP_ERROR',
      status: 401,
      message: expect.stringMatching(/^The server at 127\.0\.0\.1:\d+ wants a token, and this build of Otto sends none\. Set VITE_OTTO_API_TOKEN to the server's token/),
    });
  });

  it('says the token is not the server’s when it is another (401)', async () => {
    useServer('not-the-team-token');
    await expect(callApi(customerRoutes.list)).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining("did not accept Otto's token: VITE_OTTO_API_TOKEN in this build is not the token the server was started with"),
    });
    useServer(serverToken);
    expect((await callApi(customerRoutes.list)).data).toHaveLength(3);
  });

  it('says the server does not let this page call it (403), with what the server said', async () => {
    // What a browser sends from a page of another site.
    useServer(serverToken, { origin: 'https://elsewhere.example' });
    await expect(callApi(customerRoutes.list)).rejects.toMatchObject({
      status: 403,
      message: expect.stringMatching(/^The server at 127\.0\.0\.1:\d+ does not let this page call it\. It said: “Pages from https:\/\/elsewhere\.example may not call this server\. Start it with --cors-origin https:\/\/elsewhere\.example/),
    });
  });

  it('keeps what was typed in the create form and shows the 401 in words', async () => {
    const user = userEvent.setup();
    await renderApp('/biz/customers/new');
    useServer(undefined);
    await user.type(await screen.findByLabelText(/Full name/), 'Ada Lovelace');
    await user.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/Phone/), '555 0100');
    await user.click(screen.getByRole('button', { name: 'Create customer' }));
    expect(await screen.findByText(/wants a token, and this build of Otto sends none\. Set VITE_OTTO_API_TOKEN/)).toBeTruthy();
    expect((screen.getByLabelText(/Full name/) as HTMLInputElement).value).toBe('Ada Lovelace');
    expect((screen.getByLabelText(/Email/) as HTMLInputElement).value).toBe('ada@example.com');
    expect((screen.getByLabelText(/Phone/) as HTMLInputElement).value).toBe('555 0100');
    // Nothing reached the server's data.
    const list = await fetch(`${server.url}/customers`, { headers: { authorization: `Bearer ${serverToken}` } });
    expect(((await list.json()) as { full_name: string }[]).map((c) => c.full_name)).not.toContain('Ada Lovelace');
  });

  it('keeps the edits in the edit form when the server refuses the page (403)', async () => {
    const user = userEvent.setup();
    await renderApp('/biz/customers/edit/1');
    const name = (await screen.findByLabelText(/Full name/)) as HTMLInputElement;
    await vi.waitFor(() => expect(name.value).not.toBe(''));
    useServer(serverToken, { origin: 'https://elsewhere.example' });
    await user.clear(name);
    await user.type(name, 'Grace Hopper');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/does not let this page call it\. It said: “Pages from https:\/\/elsewhere\.example may not call this server/)).toBeTruthy();
    expect(name.value).toBe('Grace Hopper');
  });
});
