// The app itself, loaded by main.tsx (which may have started the DB worker already).
import type { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { markFirstScreenShown } from './backend/first-screen';
import { keptAnswer, setAppRoot, takeRoot } from './backend/kept-screen';
import { renderBeforeStart, startOnce } from './backend/start-once';
import { holdApiCalls } from './lib/api-client';
import { createQueryClient } from './lib/query-client';
import { reportRenderError } from './lib/route-error';
import { createRouter, prefetchScreens, preloadScreens } from './router';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// index.html already shows "Loading...". Load the screens of this URL, and render once they and
// the first screen's data are there (the backend's start, or the kept answer below): the first
// render then shows the screen itself, with no Suspense fallback (whose reveal React holds back
// for 300 ms).
if (/^\/biz\/?$/.test(window.location.pathname)) {
  // The spec's redirect of /biz (replacing history), done before the first render.
  window.history.replaceState(window.history.state, '', `/biz/customers${window.location.search}${window.location.hash}`);
}
const biz = window.location.pathname.startsWith('/biz/');
const queryClient = createQueryClient();
await preloadScreens(window.location.pathname).catch(() => undefined);
// public/kept-screen.js may be showing the list as Otto last drew it (decision 0009), with the
// answer it was drawn from. Then the app renders its first screen from that answer at once: it is
// exactly what the database holds (the screen is shown only while it is), and the list asks again
// once the backend has started (its calls wait for that), so a change made meanwhile still shows.
const answer = biz ? keptAnswer(root) : undefined;
if (answer) {
  queryClient.setQueryData(answer.queryKey, answer.result);
  renderBeforeStart();
  holdApiCalls(startOnce().then((start) => (start.ok ? undefined : start.message)));
}
const started = biz && !answer ? await startOnce() : undefined;
// The first screen's requests go out now: the database answers them while React renders, and the
// screen's own queries find them on their way instead of asking after the render.
if (started?.ok) prefetchScreens(new URL(window.location.href), queryClient);

// The kept screen stays until the app's own first screen has its data, rendered beside it, hidden.
const kept = takeRoot(root);
const live = kept ? document.createElement('div') : root;
if (kept) {
  live.className = 'otto-live';
  live.hidden = true;
  root.append(live);
}
// The customer list keeps what it shows from there (kept-screen.ts).
setAppRoot(live, answer?.result.stamp);
const router = createRouter();
createRoot(live, { onCaughtError: reportRenderError }).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);
// The app takes the kept screen's place in the same frame as it draws its first screen's data.
if (kept) {
  // A click on the kept screen is followed before the first render: that render is then the
  // screen asked for (its Suspense fallback, then its "Loading…", keep the kept screen up).
  followKeptClicks(router);
  takeOver(live, queryClient, Boolean(answer));
}
// A first visit registers the service worker after this (start-backend.ts): once the first
// screen's requests have been answered and two frames drawn, so its rows are on screen.
// From a kept answer, that is once the backend has started and the list has asked it again: the
// list's refetch, held until the start, is on its way once the app has drawn and two frames passed.
const answered = answer
  ? Promise.all([startOnce(), drawn(live).then(twoFrames)]).then(() => settled(queryClient))
  : started?.ok
    ? settled(queryClient)
    : Promise.resolve();
void answered.then(() => {
  // For the start-up bench: when the first screen's data has come from the backend.
  performance.mark('otto:first-screen-answered');
  markFirstScreenShown();
});

/**
 * Shows `live` in place of what else its parent holds (the kept screen, and the note kept-screen.js
 * adds when the start is slow) as soon as the app has drawn its first screen's data: nothing
 * "Loading" (`data-loading`) in it and, unless it was drawn from the kept answer, no query
 * fetching. Checked after every change React makes to `live` (a mutation observer runs before the
 * next paint) and every change in the query cache.
 */
function takeOver(live: HTMLElement, client: QueryClient, fromKeptAnswer: boolean): void {
  const check = () => {
    // From the kept answer, the screen has its data before the backend has started: what is still
    // being fetched is the check that the data has not changed meanwhile.
    if ((!fromKeptAnswer && client.isFetching() > 0) || !live.firstElementChild || live.querySelector('[data-loading]')) return;
    observer.disconnect();
    unsubscribe();
    for (const child of [...(live.parentElement?.children ?? [])]) if (child !== live) child.remove();
    live.parentElement?.removeAttribute('aria-busy');
    live.hidden = false;
  };
  const observer = new MutationObserver(check);
  observer.observe(live, { childList: true, subtree: true });
  const unsubscribe = client.getQueryCache().subscribe(check);
  check();
}

/**
 * Opens what was clicked on the kept screen before the app ran (public/kept-screen.js records the
 * link's address): the app goes there while the kept screen is still shown, and takes its place once
 * that screen has its data. Clicks stop counting once the kept screen is gone.
 */
function followKeptClicks(router: ReturnType<typeof createRouter>): void {
  const pending = window as unknown as { __ottoKeptClick?: string };
  const follow = () => {
    const href = pending.__ottoKeptClick;
    if (!href) return;
    delete pending.__ottoKeptClick;
    if (!document.querySelector('.otto-kept-screen')) return window.removeEventListener('otto:kept-click', follow);
    void router.navigate(href);
  };
  window.addEventListener('otto:kept-click', follow);
  follow();
}

/** Resolves two animation frames from now. */
function twoFrames(): Promise<void> {
  return new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
}

/** Resolves once React has put something in `live` (its first commit). */
function drawn(live: HTMLElement): Promise<void> {
  return new Promise<void>((resolve) => {
    if (live.firstElementChild) return resolve();
    const observer = new MutationObserver(() => {
      if (!live.firstElementChild) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(live, { childList: true });
  });
}

/** Resolves once no query is fetching, then two animation frames later. */
function settled(client: QueryClient): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = () => {
      if (client.isFetching() > 0) return;
      unsubscribe();
      void twoFrames().then(resolve);
    };
    const unsubscribe = client.getQueryCache().subscribe(check);
    check();
  });
}
