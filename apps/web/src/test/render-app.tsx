import { createMockApi, type MockApiOptions } from '@otto/mock-backend';
import { act, render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { App } from '../app';
import { configureApiClient } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { routes } from '../router';
import { fakeChangeListeners } from './fake-backend-handle';

const running: { close(): Promise<void> }[] = [];

/** Closes the mock backends of every app rendered by the test that just ran (see vitest.setup.ts). */
export async function closeRenderedApps(): Promise<void> {
  await Promise.all(running.splice(0).map((api) => api.close()));
}

/**
 * Renders the real routes at `path` against the real mock backend over an in-memory SQLite store,
 * so tests assert what a user sees.
 */
export async function renderApp(path: string, options: MockApiOptions = {}) {
  const api = await createMockApi({ seed: { count: 30, fakerSeed: 1 }, ...options });
  running.push(api);
  // The change feed, as the DB worker would broadcast it to every tab.
  api.onChange((event) => fakeChangeListeners.forEach((listener) => listener(event)));
  const requests: string[] = [];
  configureApiClient({
    fetch: (input, init) => {
      requests.push(`${init?.method ?? 'GET'} ${input}`);
      return api.fetch(new Request(new URL(input, 'http://localhost'), init));
    },
  });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // Async act lets lazily loaded screens that resolve during the first render finish rendering.
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(<App queryClient={queryClient} router={router} />);
  });
  return { api, router, requests, queryClient, ...view };
}
