// A page's own `fetch('/api/customers')` sent before any of its scripts run, for the shared flows
// (issue 33: the host used to answer such a call 503 after 3 s). The test server puts the probe
// first in every HTML page (static-server.ts `headScript`); it fires only on a page load the test
// armed (a flag in sessionStorage, kept across the tab's loads), so no other flow sees it.

const flag = 'otto-e2e-early-fetch';

/** The probe (plain ES2017, no imports), put first in each page. */
export const earlyFetchProbe = `(() => {
  if (sessionStorage.getItem(${JSON.stringify(flag)}) !== 'armed') return;
  sessionStorage.removeItem(${JSON.stringify(flag)});
  const started = performance.now();
  window.__ottoEarlyFetch = fetch('/api/customers').then(
    async (res) => ({ status: res.status, ms: Math.round(performance.now() - started), body: (await res.text()).slice(0, 200) }),
    (error) => ({ status: 0, ms: Math.round(performance.now() - started), body: String(error) }),
  );
})();`;

/** Arms the probe for the next load of this tab (run in the page: it names the flag itself). */
export function armEarlyFetch(): void {
  sessionStorage.setItem('otto-e2e-early-fetch', 'armed');
}

/** What the probe's call answered (run in the page), or null when it did not run. */
export function takeEarlyFetch(): Promise<{ status: number; ms: number; body: string }> | null {
  return (window as unknown as { __ottoEarlyFetch?: Promise<{ status: number; ms: number; body: string }> }).__ottoEarlyFetch ?? null;
}
