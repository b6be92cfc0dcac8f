/* global document, window, caches, performance */
// Shows the customer list as Otto last drew it, at once, while the app's code loads and the
// database opens (decision 0009). It is shown only while it is exactly what the database holds:
// the app kept it tagged with the data stamp of the answers it was drawn from, and the DB worker
// removes that stamp from the cache before it answers any write. The app renders beside it and
// takes its place once its own first screen has its data; until then it cannot be clicked (inert).
// The names below are those of src/backend/kept-screen-cache.ts and @otto/mock-backend's data stamp.
(() => {
  const root = document.getElementById('root');
  const path = window.location.pathname;
  if (!root || !('caches' in window) || !/^\/biz(\/customers)?\/?$/.test(path) || window.location.search || window.location.hash) return;
  const build = document.querySelector('meta[name="otto-build"]')?.getAttribute('content');
  const { locale, timeZone } = Intl.DateTimeFormat().resolvedOptions();
  caches
    .open('otto-first-screen')
    .then((cache) => Promise.all([cache.match('/__otto/data-stamp'), cache.match('/__otto/first-screen')]))
    .then(([stamp, kept]) => (stamp && kept ? Promise.all([stamp.text(), kept.json()]) : []))
    .then(([stamp, kept]) => {
      if (!stamp || !kept || kept.stamp !== stamp || kept.build !== build || kept.locale !== locale || kept.timeZone !== timeZone) return;
      // The app has taken the page already (it marks #root), or it holds more than "Loading...".
      if (root.hasAttribute('data-otto-live') || root.children.length !== 1 || !root.querySelector(':scope > .otto-loading')) return;
      const screen = document.createElement('div');
      screen.className = 'otto-kept-screen';
      screen.inert = true;
      screen.setAttribute('aria-busy', 'true');
      screen.innerHTML = kept.html;
      root.replaceChildren(screen);
      performance.mark('otto:kept-screen-shown');
    })
    .catch(() => undefined);
})();
