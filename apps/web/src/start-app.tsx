// The app itself: started by main.tsx once the DB worker is on its way.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { startOnce } from './backend/start-once';
import { createQueryClient } from './lib/query-client';
import { createRouter, prefetchScreens, preloadScreens } from './router';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// index.html already shows "Loading...". The backend is starting (main.tsx): load the screens of
// this URL meanwhile, and render once both are there: the first render then shows the screen
// itself, with no Suspense fallback (whose reveal React holds back for 300 ms).
if (/^\/biz\/?$/.test(window.location.pathname)) {
  // The spec's redirect of /biz (replacing history), done before the first render.
  window.history.replaceState(window.history.state, '', `/biz/customers${window.location.search}${window.location.hash}`);
}
const biz = window.location.pathname.startsWith('/biz/');
const [, started] = await Promise.all([preloadScreens(window.location.pathname).catch(() => undefined), biz ? startOnce() : undefined]);
const queryClient = createQueryClient();
// The first screen's requests go out now: the database answers them while React renders, and the
// screen's own queries find them on their way instead of asking after the render.
if (started?.ok) prefetchScreens(new URL(window.location.href), queryClient);

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} router={createRouter()} />
  </StrictMode>,
);
