import type { BackendStatus } from './start-backend';

declare global {
  interface Window {
    /**
     * Debug function (spec section 4): deletes the database and starts a fresh, seeded one.
     * Present once the /biz area has started the backend, and also when it found that the database
     * cannot be opened (it then deletes the file unopened; the recovery screen says so).
     */
    ottoDeleteDatabase?: () => Promise<void>;
    /** Debug function: the backend's current status (owner role, storage mode). */
    ottoBackendStatus?: () => BackendStatus;
    /** This tab's build id (diagnostics). */
    ottoAppVersion?: string;
  }
}
