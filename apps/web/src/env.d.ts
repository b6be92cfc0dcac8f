// The build-time settings of the app (Vite reads them from the environment or a .env file).
interface ImportMetaEnv {
  /**
   * Base URL of a remote Otto API, `/api` included (`http://localhost:8787/api`). When set, the app
   * calls it instead of starting the in-browser backend.
   */
  readonly VITE_OTTO_API_BASE_URL?: string;
  /**
   * The bearer token of that server (`otto-mock-server --token`, or the one it printed at start),
   * sent as `Authorization: Bearer …` and, for the change feed's `EventSource`, as `?token=`.
   * It is built into the app: anyone who can load the app can read it (decision 0050).
   */
  readonly VITE_OTTO_API_TOKEN?: string;
  /**
   * Sync mode (decision 0163): the team server's API base URL, `/api` included. The app keeps a
   * copy of the business's data in this browser, answers every screen from it (offline too), and
   * syncs it with that server (with `VITE_OTTO_API_TOKEN` as its token).
   */
  readonly VITE_OTTO_SYNC_URL?: string;
}

/** This build's id (package version + build time), so tabs running different builds notice each other. */
declare const __OTTO_BUILD_ID__: string;
