// Rendered at build time, in jsdom (build/render-seed-screen.mjs): the app's first screen over the
// first-start database, the HTML a first visit shows before the database exists (decision 0009).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '../src/app';
import { keptHtmlOf } from '../src/backend/kept-screen';
import { configureApiClient } from '../src/lib/api-client';
import { createQueryClient } from '../src/lib/query-client';
import { createRouter, preloadScreens } from '../src/router';

/**
 * Renders /biz/customers with its API answered by `fetch` and resolves with the screen's HTML as
 * kept-screen.ts keeps it, once the list has its rows.
 * @example
 * const html = await renderSeedScreen((input, init) => api.fetch(new Request(new URL(input, 'http://localhost'), init)));
 */
export async function renderSeedScreen(fetch: (input: string, init?: RequestInit) => Promise<Response>): Promise<string> {
  configureApiClient({ fetch });
  await preloadScreens('/biz/customers');
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element.');
  createRoot(root).render(
    <StrictMode>
      <App queryClient={createQueryClient()} router={createRouter()} />
    </StrictMode>,
  );
  for (let waited = 0; waited < 20_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const html = root.querySelector('table a[href*="/biz/customers/edit/"]') ? keptHtmlOf(root) : undefined;
    if (html !== undefined) return html;
  }
  throw new Error(`The first screen did not show its rows within 20 seconds: ${root.innerHTML.slice(0, 500)}`);
}
