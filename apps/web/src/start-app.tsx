// The app itself: started by main.tsx once the DB worker is on its way.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { startOnce } from './backend/start-once';
import { createQueryClient } from './lib/query-client';
import { createRouter, preloadScreens } from './router';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// index.html already shows "Loading...". Start the backend and load the screens of this URL at the
// same time, and render once both are there: the first render then shows the screen itself, with
// no Suspense fallback (whose reveal React holds back for 300 ms).
if (/^\/biz\/?$/.test(window.location.pathname)) {
  // The spec's redirect of /biz (replacing history), done before the first render.
  window.history.replaceState(window.history.state, '', `/biz/customers${window.location.search}${window.location.hash}`);
}
const biz = window.location.pathname.startsWith('/biz/');
await Promise.all([preloadScreens(window.location.pathname).catch(() => undefined), biz ? startOnce() : undefined]);

createRoot(root).render(
  <StrictMode>
    <App queryClient={createQueryClient()} router={createRouter()} />
  </StrictMode>,
);
