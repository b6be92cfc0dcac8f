// The kept first screen (decision 0009): once the customer list has shown its data at start-up,
// its HTML is kept in Cache Storage, tagged with the data stamp of the answers it was drawn from.
// On the next visit public/kept-screen.js shows it at once, before the app's code has loaded, when
// the stamp is still the one in the cache: the DB worker removes that stamp before any write is
// answered, so a kept screen is shown only while it is exactly what the database holds. The app
// then renders beside it, hidden, and takes its place once its own first screen has its data.
import { dataStampHeader } from '@otto/mock-backend/browser';
import { keptScreenCache, keptScreenKey } from './kept-screen-cache';

/** The path whose screen is kept: the customer list as it opens, no search, page or order. */
const keptPath = '/biz/customers';

/** The stamps of the database's answers to this page's reads; `mixed` once any answer had none or the page wrote. */
const seen = { stamps: new Set<string>(), mixed: false };

/**
 * Notes one answer of the in-browser database (the API client's fetch calls this for each).
 * @example
 * noteAnswer('GET', response);
 */
export function noteAnswer(method: string, response: Response): void {
  const stamp = response.headers.get(dataStampHeader);
  if (method !== 'GET' || !stamp) seen.mixed = true;
  else seen.stamps.add(stamp);
}

/** What is kept: the screen's HTML and what it must match to be shown. */
export interface KeptScreen {
  /** The data stamp every answer on the screen was read under. */
  stamp: string;
  /** The build whose markup and styles it is. */
  build: string;
  /** Dates and numbers were formatted for this locale and time zone. */
  locale: string;
  timeZone: string;
  path: string;
  html: string;
  keptAt: number;
}

/**
 * Keeps the screen now in `root` for the next visit, when it is the customer list as it opens and
 * every answer this page read came from one state of the database. Never throws.
 * @example
 * await keepFirstScreen(document.getElementById('root')!);
 */
export async function keepFirstScreen(root: HTMLElement): Promise<boolean> {
  try {
    if (window.location.pathname !== keptPath || window.location.search || window.location.hash) return false;
    const [stamp, ...others] = seen.stamps;
    if (!stamp || others.length > 0 || seen.mixed || !('caches' in window)) return false;
    const copy = root.cloneNode(true) as HTMLElement;
    // What belongs to the moment, not to the data: notices, dialogs, toasts.
    for (const passing of copy.querySelectorAll('.otto-shell__banner, dialog, [role="alert"], [data-not-kept]')) passing.remove();
    if (!copy.querySelector('table, .otto-empty')) return false;
    const { locale, timeZone } = Intl.DateTimeFormat().resolvedOptions();
    const kept: KeptScreen = { stamp, build: __OTTO_BUILD_ID__, locale, timeZone, path: keptPath, html: copy.innerHTML, keptAt: Date.now() };
    const cache = await caches.open(keptScreenCache);
    await cache.put(keptScreenKey, new Response(JSON.stringify(kept), { headers: { 'content-type': 'application/json' } }));
    return true;
  } catch {
    return false;
  }
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
