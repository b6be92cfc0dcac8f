// The dedicated worker that owns the SQLite database (OPFS) in the tab elected by startBrowserBackend.
import '../lib/zod-config';
import { serveMockApiInWorker } from '@otto/mock-backend/worker';

serveMockApiInWorker({ appVersion: __OTTO_BUILD_ID__ }).catch(() => {
  // Already reported to the page ('failed'), which shows it; nothing more to do here.
});
