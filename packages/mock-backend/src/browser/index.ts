// Entry of `@otto/mock-backend/browser`: the page side of the in-browser backend. It never loads
// SQLite; the database runs in the DB worker (`@otto/mock-backend/worker`).
export { startBrowserBackend } from './start-browser-backend';
export { mockControl, type MockControl, type MockControlOptions } from '../control-client';
export { fetchDatabaseFile, postCompiledSqlite, postSeedFile } from './files-from-page';
export { databaseProblemOf, openDatabaseRecovery, type DatabaseRecovery, type DatabaseRecoveryOptions } from './database-recovery';
export {
  apiPathPrefix,
  appVersionHeader,
  initPortType,
  skipWaitingType,
  type PortMessage,
  type SerializedRequest,
  type SerializedResponse,
  type SetAsideFileInfo,
  type WorkerBackendInfo,
} from './protocol';
export type { BackendStatus, BrowserBackend, BrowserBackendOptions } from './types';
export { defaultChangeChannelName, listenForChanges } from './change-channel';
export { dataStampHeader, dataStampKey, databaseMadeKey } from './data-stamp';
export { maxBackupBytes } from '../database/backup-limits';
export { requestBudgetMs, longRequestMs } from './host/budgets';
export { syncChannelName, type SyncMessage, type SyncNotice, type SyncStatus } from './sync-channel';
