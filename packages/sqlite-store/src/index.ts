export { createSqliteStore, openSqliteStore, inspectDatabaseBytes, isNewOpfsPool, type DatabaseFileInfo } from './sqlite-store';
export { runMigrations } from './migrate';
export { preloadSqlite, type LoadSqliteOptions } from './sqlite-module';
export {
  deleteSetAsideFile,
  keepFileAside,
  listSetAsideFiles,
  readSetAsideFile,
  setAsideDirectory,
  type SetAsideFile,
} from './set-aside-files';
export { StoreError, type StoreErrorCode } from './store-error';
export type {
  BindParams,
  Database,
  Migration,
  MigrationResult,
  RunResult,
  SqlValue,
  SqliteStore,
  SqliteStoreOptions,
  StorageMode,
  StoreInfo,
  StoreLogger,
} from './types';
