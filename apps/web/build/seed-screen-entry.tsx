// Rendered at build time, in jsdom (build/render-seed-screen.mjs): the app's first screen over the
// first-start database, the HTML a first visit shows before the database exists (decision 0009).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '../src/app';
import { keptHtmlOf, type KeptAnswer } from '../src/backend/kept-screen';
import { customerListRequest, customersOptions } from '../src/features/customers/api/get-customers';
import { configureApiClient } from '../src/lib/api-client';
import { createQueryClient } from '../src/lib/query-client';
import { createRouter, preloadScreens } from '../src/router';

/**
 * Renders /biz/customers with its API answered by `fetch` and resolves with the screen's HTML as
 * kept-screen.ts keeps it, once the list has its rows, and the answer it shows (the app's first
 * screen on a first visit starts from it; public/kept-screen.js moves its dates).
 * @example
 * const { html, answer } = await renderSeedScreen((input, init) => api.fetch(new Request(new URL(input, 'http://localhost'), init)));
 */
export async function renderSeedScreen(
  fetch: (input: string, init?: RequestInit) => Promise<Response>,
): Promise<{ html: string; answer: KeptAnswer }> {
  configureApiClient({ fetch });
  await preloadScreens('/biz/customers');
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element.');
  const queryClient = createQueryClient();
  const { queryKey } = customersOptions(customerListRequest(new URLSearchParams()).params);
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} router={createRouter()} />
    </StrictMode>,
  );
  for (let waited = 0; waited < 20_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const html = root.querySelector('table a[href*="/biz/customers/edit/"]') ? keptHtmlOf(root) : undefined;
    const result = queryClient.getQueryData(queryKey);
    if (html !== undefined && result) return { html, answer: { queryKey, result } };
  }
  throw new Error(`The first screen did not show its rows within 20 seconds: ${root.innerHTML.slice(0, 500)}`);
}
