/* global document, window, navigator, caches, performance, setTimeout, Event, CustomEvent */
// Shows the customer list at once, while the app's code loads and the database opens (decision
// 0009), only while it is exactly what the database holds:
// - on a later visit, the list as Otto last drew it: the app kept it tagged with the data stamp of
//   the answer it showed, and the DB worker removes that stamp from the cache before it answers
//   any write;
// - on a first visit (no database yet), the first screen made at build time over the first-start
//   data (app.html's #otto-seed-screen), its dates moved to the moment this page opened, which is
//   the moment the database about to be made moves them to (create-db-worker.ts).
// The app renders beside it and takes its place once its own first screen has its data; until
// then it cannot be clicked (inert), but a click on one of its links opens that link as soon as the
// app runs. The names below are those of src/backend/kept-screen-cache.ts,
// @otto/mock-backend's data stamp and the DB worker's OPFS directory.
(() => {
  let decided = false;
  /**
   * Tells the page's entry (src/main.tsx), once, whether a screen with its answer is shown: the app
   * then draws its first screen from that answer and starts the DB worker itself, after its own
   * code has loaded, instead of at once beside it (both would share the CPU).
   */
  const decide = (shown) => {
    if (decided) return;
    decided = true;
    window.__ottoKeptScreenShown = shown;
    window.dispatchEvent(new CustomEvent('otto:kept-screen', { detail: shown }));
  };
  // Whatever goes wrong below (storage blocked, say), the entry hears that nothing is shown.
  try {
    const root = document.getElementById('root');
    const path = window.location.pathname;
    if (!root || !/^\/biz(\/customers)?\/?$/.test(path) || window.location.search || window.location.hash) return decide(false);
    const build = document.querySelector('meta[name="otto-build"]')?.getAttribute('content');
    // The dev server's code changes without a new build id, and its styles come with its scripts.
    if (!build || build === 'dev') return decide(false);
    const { locale, timeZone } = Intl.DateTimeFormat().resolvedOptions();

    /**
     * Puts `html` in #root, unless the app has taken the page already (it marks #root), and hands the
     * app the answer it was drawn from: the app renders its first screen from it (start-app.tsx).
     */
    const show = (html, answer) => {
      if (root.hasAttribute('data-otto-live') || root.children.length !== 1 || !root.querySelector(':scope > .otto-loading')) return decide(false);
      if (answer) window.__ottoKeptAnswer = answer;
      const screen = document.createElement('div');
      screen.className = 'otto-kept-screen';
      screen.inert = true;
      // A picture of the app until the app itself is there: assistive technology meets the app only.
      screen.setAttribute('aria-hidden', 'true');
      screen.innerHTML = html;
      // Its ids would be the app's too while both are in the page (the skip link's #main, say).
      for (const element of screen.querySelectorAll('[id]')) element.removeAttribute('id');
      root.setAttribute('aria-busy', 'true');
      root.replaceChildren(screen);
      performance.mark('otto:kept-screen-shown');
      decide(Boolean(answer));
      /** A line above the screen (one at a time), read out as a status. */
      const say = (words) => {
        if (!screen.isConnected) return;
        const note = root.querySelector(':scope > .otto-kept-screen__note') ?? document.createElement('p');
        note.className = 'otto-kept-screen__note';
        note.setAttribute('role', 'status');
        note.textContent = words;
        if (!note.isConnected) root.prepend(note);
      };
      let clicked = false;
      // A click on a link of the screen is not lost: the app opens it as soon as it runs
      // (start-app.tsx reads window.__ottoKeptClick). The screen is inert, so the click lands on
      // #root; what was under the pointer is found with the screen briefly not inert.
      root.addEventListener(
        'click',
        (event) => {
          if (!screen.isConnected || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
          screen.inert = false;
          const hit = document.elementFromPoint(event.clientX, event.clientY);
          screen.inert = true;
          // The link, or the table cell's one link (the cell is wider and taller than its text).
          const cell = hit && screen.contains(hit) ? hit.closest('a[href], th, td') : null;
          const links = cell?.matches('a') ? [cell] : [...(cell?.querySelectorAll('a[href]') ?? [])];
          // A screen of the app only (a mailto: or tel: link is not one the app can open).
          const link = links.length === 1 && links[0].origin === window.location.origin && links[0].pathname.startsWith('/biz') ? links[0] : null;
          if (!link) return say('Otto is still starting: the list below answers in a moment.');
          event.preventDefault();
          clicked = true;
          window.__ottoKeptClick = link.getAttribute('href');
          window.dispatchEvent(new Event('otto:kept-click'));
          say(`Opening “${link.textContent.trim()}” as soon as Otto has started…`);
        },
        true,
      );
      // Should the app be slow to take over, say so rather than show a list that does not answer.
      setTimeout(() => {
        if (!clicked) say('Otto is still starting: the list below answers once it has. If it does not, reload the page.');
      }, 3000);
    };

    /** The list as last drawn, when its stamp is still the one in the cache; whether it was shown. */
    const kept = (cache) =>
      Promise.all([cache.match('/__otto/data-stamp'), cache.match('/__otto/first-screen')])
        .then(([stamp, screen]) => (stamp && screen ? Promise.all([stamp.text(), screen.json()]) : []))
        .then(([stamp, screen]) => {
          if (!stamp || !screen || screen.stamp !== stamp || screen.build !== build || screen.locale !== locale || screen.timeZone !== timeZone) return false;
          show(screen.html, screen.answer);
          return true;
        });

    /**
     * On a first visit, the first screen made at build time: when no database was ever made here
     * (the DB worker says so in the cache, whatever it keeps the database in) and OPFS has no
     * database directory.
     */
    const first = (cache) => {
      const data = document.getElementById('otto-seed-screen');
      // The build wrote its numbers ("500 customers") with these digits.
      if (!data || !navigator.storage?.getDirectory || new Intl.NumberFormat().format(500) !== '500') return decide(false);
      cache
        .match('/__otto/database')
        .then((made) => (made ? undefined : navigator.storage.getDirectory().then((directory) => directory.getDirectoryHandle('.otto'))))
        .then(
          () => decide(false), // a database is there, or was: not a first start
          (error) => {
            if (error?.name !== 'NotFoundError') return decide(false);
            const { generatedAt, html, answer } = JSON.parse(data.textContent);
            const shift = Math.floor(performance.timeOrigin) - generatedAt;
            // The answer's dates (every number under a name ending in _dt) move as the database's do.
            const moved = (value, name) =>
              Array.isArray(value)
                ? value.map((item) => moved(item))
                : value && typeof value === 'object'
                  ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, moved(item, key)]))
                  : typeof value === 'number' && name?.endsWith('_dt')
                    ? value + shift
                    : value;
            const formats = new Map();
            const format = (options, ms) => {
              if (!formats.has(options)) formats.set(options, new Intl.DateTimeFormat(undefined, JSON.parse(options)));
              return formats.get(options).format(Number(ms) + shift);
            };
            show(
              html.replace(/\u2063otto-date\|([^|]*)\|(-?\d+)\u2063/g, (_, options, ms) => format(options, ms)),
              answer && { queryKey: answer.queryKey, result: moved(answer.result) },
            );
          },
        )
        .catch(() => decide(false));
    };

    if (!('caches' in window)) return decide(false);
    caches
      .open('otto-first-screen')
      .then((cache) => kept(cache).then((shown) => (shown ? undefined : first(cache))))
      .catch(() => decide(false));
  } catch {
    decide(false);
  }
})();
