// The app's entry: on a /biz page, start the DB worker (it loads SQLite while the app's code loads;
// decision 0008) unless the app can draw its first screen from a kept answer, then load and start
// the app. This module's static imports are kept tiny (no zod, no React), so the worker starts as
// soon as the entry itself has loaded and kept-screen.js has decided.
import '@otto/ui/styles.css';
import './app.css';
import { startDbWorkerEarly } from './backend/early-db-worker';
import { keptScreenShown } from './backend/kept-screen-shown';

const biz = window.location.pathname.startsWith('/biz');
// The backend starts now (the DB worker, the election of the tab that owns the database, then the
// database's open) while React and the screens load; start-app waits for the same start
// (startOnce). Unless public/kept-screen.js shows the list with the answer it was drawn from: the
// app then draws its first screen from that answer, and starts the backend once its own code has
// loaded (start-app.tsx), so that the two do not share the CPU meanwhile (decision 0009).
// A build on a remote server (VITE_OTTO_API_BASE_URL) has no in-browser database at all.
const local = !import.meta.env.VITE_OTTO_API_BASE_URL?.trim();
const startNow = biz && local ? keptScreenShown().then((kept) => !kept) : Promise.resolve(false);
void startNow.then((now) => {
  if (now) startDbWorkerEarly();
});
// zod's CSP-safe setting runs before any module of the app builds a schema (the CSP forbids
// zod's eval, and zod 4.6 probes for eval when a schema is built): as a module of its own, loaded
// and run before the app's chunks (start-once's included), since a bundle runs shared chunks
// before an entry's own code.
await import('./lib/zod-config');
void startNow.then((now) => {
  if (now) void import('./backend/start-once').then(({ startOnce }) => startOnce());
});
await import('./start-app');
