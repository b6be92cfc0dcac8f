// The app's entry: on a /biz page, start the DB worker first (it loads SQLite while the app's code
// loads; decision 0008), then load and start the app. This module's own imports are kept tiny (no
// zod, no React), so the worker starts as soon as the entry itself has loaded.
import '@otto/ui/styles.css';
import './app.css';
import { startDbWorkerEarly } from './backend/early-db-worker';

if (window.location.pathname.startsWith('/biz')) startDbWorkerEarly();
await import('./start-app');
