export { createMockApi } from './create-mock-api';
export { createDeviceSync, makeDevice, type DeviceSyncState, type SyncNotice, type SyncReport, type SyncServer } from './sync/device-sync';
export { createLogger, type Logger, type LoggerOptions } from './logger';
export { ApiError } from './runtime/api-error';
export { toFtsQuery } from './database/fts-query';
export { migrations, latestSchemaVersion } from './database/migrations';
export { backupCheckBudgetMs, checkBackup, checkBudgetMs, maxBackupBytes, maxInMemoryBackupBytes, type BackupSummary, type CheckBackupOptions } from './database/check-backup';
export { seedDatabase, giveJobsInvoices, type SeedOptions } from './database/seed';
export { exportSeedData, exportSeedDatabase, importSeedData, settleSeedDatabase, type SeedData, type SeedTable } from './database/seed-data';
export type {
  MockApi,
  MockApiOptions,
  MockApiOnDatabaseOptions,
  ApiDatabase,
  ApiDatabaseContext,
  ApiOn,
  OpenApiDatabase,
  ChangeListener,
  MockChangeEvent,
} from './types';
export type { SqlClient, SqlDialect, SqlDialectName, SqlStore, TransactionOptions } from './sql/types';
export { defineExtension, defineRoute, extensionRouteTable, type CustomRoute, type MockApiExtension } from './runtime/extensions';
export type { HandlerContext, HandlerResult, RouteHandler } from './runtime/handler';
export { mockControl, type MockControl, type MockControlOptions } from './control-client';
export { builtInScenarios, maxScenarioDelayMs, type MockOverride } from './runtime/scenarios';
export type { MockFixture } from './database/fixtures';
export { memoryShelf, type ControlShelf } from './runtime/scenarios';
