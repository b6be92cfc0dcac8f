export { createSqliteStore, openSqliteStore } from './sqlite-store';
export { assertSqliteFile, inspectDatabase, inspectDatabaseBytes, schemaOf, type DatabaseFileInfo, type InspectOptions, type SchemaObject } from './inspect-database-bytes';
export { wasInterrupted, type UntrustedOptions } from './guard-connection';
export { isNewOpfsPool } from './opfs-pool';
export { opfsAvailable } from './sqlite-module';
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
