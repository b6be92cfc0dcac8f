// A page's own `fetch('/api/customers')` sent before any of its scripts run, for the shared flows
// (issue 33: the host used to answer such a call 503 after 3 s). The test server puts the probe
// first in every HTML page (static-server.ts `headScript`); it fires only on a page load the test
// armed, so no other flow sees it. The arm is kept in two places that live across a tab's loads,
// window.name and sessionStorage: Firefox writes sessionStorage to its parent process on a channel
// of its own, so a write made just before a navigation may not be there yet when the next page reads it.

const flag = 'otto-e2e-early-fetch';

/** The probe (plain ES2017, no imports), put first in each page. */
export const earlyFetchProbe = `(() => {
  const flag = ${JSON.stringify(flag)};
  const armed = window.name === flag || sessionStorage.getItem(flag) === 'armed';
  if (window.name === flag) window.name = '';
  sessionStorage.removeItem(flag);
  if (!armed) return;
  const started = performance.now();
  window.__ottoEarlyFetch = fetch('/api/customers').then(
    async (res) => ({ status: res.status, ms: Math.round(performance.now() - started), body: (await res.text()).slice(0, 200) }),
    (error) => ({ status: 0, ms: Math.round(performance.now() - started), body: String(error) }),
  );
})();`;

/** Arms the probe for the next load of this tab (run in the page: it names the flag itself). */
export function armEarlyFetch(): void {
  window.name = 'otto-e2e-early-fetch';
  sessionStorage.setItem('otto-e2e-early-fetch', 'armed');
}

/**
 * What the probe's call answered (run in the page); when it did not run, what this load was (a
 * reload by the page itself would have used up the arm), for the failure message.
 */
export async function takeEarlyFetch(): Promise<{ status: number; ms: number; body: string } | { missing: string }> {
  const found = (window as unknown as { __ottoEarlyFetch?: Promise<{ status: number; ms: number; body: string }> }).__ottoEarlyFetch;
  if (found) return found;
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return {
    missing: `this page (${location.pathname}${location.search}) was loaded by a ${navigation?.type ?? 'unknown'}, controlled: ${Boolean(navigator.serviceWorker?.controller)}, its own reload guard: ${sessionStorage.getItem('otto-sw-control-reload') ?? 'none'}`,
  };
}
