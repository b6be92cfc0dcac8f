// Whether public/kept-screen.js shows the customer list with the answer it was drawn from (decision
// 0009). The script runs `async`, before or after the app's entry: it says so once it has decided,
// in `window.__ottoKeptScreenShown` and with an `otto:kept-screen` event.

declare global {
  interface Window {
    /** Set by public/kept-screen.js once it has decided: a kept screen with its answer is shown. */
    __ottoKeptScreenShown?: boolean;
  }
}

/** Pages kept-screen.js may show a screen on: the customer list as it opens. */
const keptPath = /^\/biz(\/customers)?\/?$/;

/**
 * Resolves with whether a kept screen with its answer is shown: at once where none can be (another
 * page, a search, a build without the script), else once kept-screen.js has decided (it reads Cache
 * Storage and, on a first visit, OPFS), and false when it could not be loaded or has not decided
 * within a second.
 * @example
 * if (!(await keptScreenShown())) startDbWorkerEarly();
 */
export function keptScreenShown(): Promise<boolean> {
  const { pathname, search, hash } = window.location;
  const script = document.querySelector('script[src="/kept-screen.js"]');
  if (!keptPath.test(pathname) || search || hash || !script) return Promise.resolve(false);
  if (window.__ottoKeptScreenShown !== undefined) return Promise.resolve(window.__ottoKeptScreenShown);
  const loading: Element = script;
  return new Promise((resolve) => {
    const timer = setTimeout(() => said(false), 1_000);
    function said(shown: boolean): void {
      clearTimeout(timer);
      window.removeEventListener('otto:kept-screen', onDecided);
      loading.removeEventListener('error', onFailed);
      resolve(shown);
    }
    function onDecided(event: Event): void {
      said((event as CustomEvent<boolean>).detail === true);
    }
    // The script could not be loaded: it will say nothing.
    function onFailed(): void {
      said(false);
    }
    window.addEventListener('otto:kept-screen', onDecided);
    loading.addEventListener('error', onFailed);
  });
}
