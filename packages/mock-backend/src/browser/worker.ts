// Entry of `@otto/mock-backend/worker`: the DB worker side of the in-browser backend.
export { serveMockApiInWorker } from './serve-mock-api-in-worker';
export { fetchDatabaseFile } from './files-from-page';
export type { ServeMockApiInWorkerOptions, WorkerBackendInfo, WorkerScope } from './types';
export type { SyncSettings } from './sync-runner';
export type { SeedData } from '../database/seed-data';
