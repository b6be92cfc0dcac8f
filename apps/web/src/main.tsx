// The app's entry: on a /biz page, start the DB worker first (it loads SQLite while the app's code
// loads; decision 0008), then load and start the app.
// First, before any module of the app builds or parses a schema (the CSP forbids zod's eval).
import './lib/zod-config';
import '@otto/ui/styles.css';
import './app.css';
import { startDbWorkerEarly } from './backend/early-db-worker';

if (window.location.pathname.startsWith('/biz')) startDbWorkerEarly();
await import('./start-app');
