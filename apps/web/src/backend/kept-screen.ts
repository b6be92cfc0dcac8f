// The kept first screen (decision 0009): whenever the customer list as it opens has drawn its
// data, its HTML is kept in Cache Storage, tagged with the data stamp of the answer it shows. On
// the next visit public/kept-screen.js shows it at once, before the app's code has loaded, when
// that stamp is still the one in the cache: the DB worker removes the stamp before any write is
// answered, so a kept screen is shown only while it is exactly what the database holds. The app
// then renders beside it, hidden, and takes its place once its own first screen has its data.
import { keptScreenCache, keptScreenKey } from './kept-screen-cache';

/** The path whose screen is kept: the customer list as it opens, no search, page or order. */
const keptPath = '/biz/customers';

/** The element the app renders into (start-app.tsx), and the stamp last kept from it. */
const app: { root?: HTMLElement; lastStamp?: string } = {};

/** What is kept: the screen's HTML and what it must match to be shown. */
export interface KeptScreen {
  /** The data stamp of the answer the screen shows. */
  stamp: string;
  /** The build whose markup and styles it is. */
  build: string;
  /** Dates and numbers were formatted for this locale and time zone. */
  locale: string;
  timeZone: string;
  html: string;
  /** The answer the screen was drawn from: the app starts from it (see `keptAnswer`). */
  answer?: KeptAnswer;
  /** When it was kept (for a person looking into the cache). */
  keptAt: number;
}

/**
 * The answer a kept screen shows, under the query key of the list that drew it. public/kept-screen.js
 * hands it to the app (`window.__ottoKeptAnswer`) when it shows the screen, so only while the
 * screen is exact; on a first visit it is the build's answer over the first-start data, its dates
 * moved as the screen's are.
 */
export interface KeptAnswer {
  queryKey: readonly unknown[];
  /** The API client's result: the page of customers, the total and the data stamp. */
  result: { data: unknown; totalCount?: number; stamp?: string };
}

/**
 * The answer of the screen public/kept-screen.js is showing, if it shows one: the app renders its
 * first screen from it at once instead of waiting for the database (start-app.tsx). The list asks
 * the database again once it has started, so a change that came meanwhile still shows.
 * @example
 * const answer = keptAnswer(root);
 * if (answer) queryClient.setQueryData(answer.queryKey, answer.result);
 */
export function keptAnswer(root: HTMLElement): KeptAnswer | undefined {
  const answer = (window as unknown as { __ottoKeptAnswer?: KeptAnswer }).__ottoKeptAnswer;
  if (!answer || !root.querySelector(':scope > .otto-kept-screen') || !Array.isArray(answer.queryKey) || !answer.result) return undefined;
  return answer;
}

/**
 * The kept screen public/kept-screen.js put in `root`, if it did; marks `root` as taken by the app
 * otherwise, so that the script leaves it alone from now on.
 * @example
 * const kept = takeRoot(root);
 */
export function takeRoot(root: HTMLElement): HTMLElement | undefined {
  root.setAttribute('data-otto-live', '');
  return root.querySelector<HTMLElement>(':scope > .otto-kept-screen') ?? undefined;
}

/**
 * Tells which element the app renders into: what is kept is copied from there.
 * @example
 * setAppRoot(live);
 */
export function setAppRoot(root: HTMLElement, keptStamp?: string): void {
  app.root = root;
  // The screen shown from the cache is the one kept under this stamp: no need to keep it again.
  if (keptStamp) app.lastStamp = keptStamp;
}

/**
 * Keeps the screen two frames from now (once drawn), when the customer list as it opens shows the
 * answer read under `stamp`. Returns a function that cancels it (the answer was replaced meanwhile).
 * @example
 * useEffect(() => (stamp ? keepFirstScreenSoon(stamp) : undefined), [stamp]);
 */
export function keepFirstScreenSoon(stamp: string, answer?: KeptAnswer): () => void {
  let frame = requestAnimationFrame(() => {
    frame = requestAnimationFrame(() => void keepFirstScreen(stamp, answer));
  });
  return () => cancelAnimationFrame(frame);
}

/**
 * Keeps the screen the app shows now for the next visit, tagged with `stamp` (the data stamp of
 * the answer on it), with that answer, when it is the customer list as it opens. Never throws.
 * @example
 * await keepFirstScreen(result.data.stamp, { queryKey, result: result.data });
 */
export async function keepFirstScreen(stamp: string, answer?: KeptAnswer): Promise<boolean> {
  try {
    const root = app.root;
    if (import.meta.env.DEV || !root || root.hidden || stamp === app.lastStamp || !('caches' in window)) return false;
    if (window.location.pathname !== keptPath || window.location.search || window.location.hash) return false;
    const html = keptHtmlOf(root);
    if (html === undefined) return false;
    const { locale, timeZone } = Intl.DateTimeFormat().resolvedOptions();
    const kept: KeptScreen = { stamp, build: __OTTO_BUILD_ID__, locale, timeZone, html, ...(answer ? { answer } : {}), keptAt: Date.now() };
    app.lastStamp = stamp;
    const cache = await caches.open(keptScreenCache);
    await cache.put(keptScreenKey, new Response(JSON.stringify(kept), { headers: { 'content-type': 'application/json' } }));
    return true;
  } catch {
    return false;
  }
}

/**
 * The HTML of the screen in `root` as it is kept: without what belongs to the moment rather than
 * to the data (notices, dialogs, alerts); undefined when it shows no list yet or is still loading.
 * Also used at build time for the first visit's screen (build/seed-screen-entry.tsx).
 * @example
 * const html = keptHtmlOf(document.getElementById('root')!);
 */
export function keptHtmlOf(root: HTMLElement): string | undefined {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const passing of copy.querySelectorAll('.otto-shell__banner, dialog, [role="alert"], [data-not-kept]')) passing.remove();
  // Inline styles a script set (the policy allows those, not style attributes in HTML): shown
  // again as HTML they would only be refused by the Content-Security-Policy.
  for (const styled of copy.querySelectorAll('[style]')) styled.removeAttribute('style');
  if (!copy.querySelector('table, .otto-empty') || copy.querySelector('[data-loading]')) return undefined;
  return copy.innerHTML;
}
