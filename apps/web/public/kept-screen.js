/* global document, window, caches, performance, setTimeout */
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
  // The dev server's code changes without a new build id, and its styles come with its scripts.
  if (!build || build === 'dev') return;
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
      screen.innerHTML = kept.html;
      // Its ids would be the app's too while both are in the page (the skip link's #main, say).
      for (const element of screen.querySelectorAll('[id]')) element.removeAttribute('id');
      root.setAttribute('aria-busy', 'true');
      root.replaceChildren(screen);
      performance.mark('otto:kept-screen-shown');
      // Should the app be slow to take over, say so rather than show a list that does not answer.
      setTimeout(() => {
        if (!screen.isConnected) return;
        const note = document.createElement('p');
        note.className = 'otto-kept-screen__note';
        note.setAttribute('role', 'status');
        note.textContent = 'Otto is still starting. This is your customer list as it was last shown; it answers once Otto has started. If it does not, reload the page.';
        root.prepend(note);
      }, 3000);
    })
    .catch(() => undefined);
})();
