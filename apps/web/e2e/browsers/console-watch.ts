// What a browser's client cannot report, a page reports itself: classic WebDriver (all that
// WebKitWebDriver speaks) has no console or error events, and MiniBrowser ignores its
// write-console-messages-to-stdout setting when driven by WebKitWebDriver (tried: nothing is
// written). So the shared flows' server puts this script first in every HTML page it serves to
// WebKit (inline, before the page's Content-Security-Policy <meta>, so that it is in the copy the
// service worker precaches and runs offline too; static-server.ts); it keeps the page's console
// errors, uncaught exceptions and unhandled rejections in sessionStorage (per tab, kept across
// reloads), and `takeWatchedProblems` reads and empties it. It sees documents only: a worker's own
// console lines stay out of its reach.

/** The sessionStorage key the watch writes to. */
const key = 'otto-e2e-problems';

/** The script (plain ES2017, no imports), put first in each page. */
export const consoleWatchSource = `(() => {
  if (window.__ottoConsoleWatch) return;
  window.__ottoConsoleWatch = true;
  const key = ${JSON.stringify(key)};
  const keep = (line) => {
    try {
      const list = JSON.parse(sessionStorage.getItem(key) || '[]');
      list.push(line.slice(0, 2000));
      sessionStorage.setItem(key, JSON.stringify(list));
    } catch (e) {
      // Storage full or refused: nothing to keep it in.
    }
  };
  const text = (value) => (value instanceof Error ? value.name + ': ' + value.message + (value.stack ? ' at ' + value.stack.split('\\n')[0] : '') : typeof value === 'string' ? value : (() => { try { return JSON.stringify(value); } catch (e) { return String(value); } })());
  const error = console.error.bind(console);
  console.error = (...args) => {
    keep('console.error: ' + args.map(text).join(' '));
    error(...args);
  };
  window.addEventListener('error', (event) => {
    if (event instanceof ErrorEvent) keep('uncaught: ' + (event.error ? text(event.error) : event.message) + ' (' + event.filename + ':' + event.lineno + ')');
    else if (event.target && event.target !== window) keep('failed to load: ' + (event.target.src || event.target.href || event.target.tagName));
  }, true);
  window.addEventListener('unhandledrejection', (event) => keep('unhandled rejection: ' + text(event.reason)));
})();
`;

/**
 * A page expression answering what the watch kept since the last call (and emptying it), or, for a
 * page of the app without the watch, a line saying so (its errors could not have been seen).
 */
export const takeWatchedProblems = `(() => {
  if (location.protocol === 'about:') return [];
  if (!window.__ottoConsoleWatch) return ['the console watch is not in this page (' + location.href + '): its errors cannot be seen'];
  const list = JSON.parse(sessionStorage.getItem(${JSON.stringify(key)}) || '[]');
  sessionStorage.removeItem(${JSON.stringify(key)});
  return list;
})()`;
