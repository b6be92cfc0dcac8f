// What the DB worker tells the page about the database it serves, and about a failure.
import { StoreError } from '@otto/sqlite-store';
import type { MockApi } from '../types';
import { errorMessage, type SerializedError, type WorkerBackendInfo } from './protocol';

/** The page's view of the database `api` serves. */
export function infoOf(api: MockApi): WorkerBackendInfo {
  const { info } = api;
  return {
    storage: info.mode === 'opfs' || info.mode === 'indexeddb' ? info.mode : 'memory',
    filename: info.filename,
    sqliteVersion: info.sqliteVersion,
    schemaVersion: info.schemaVersion,
    seeded: info.seeded.customers,
    ...(info.fallbackReason ? { fallbackReason: info.fallbackReason } : {}),
  };
}

/** A thrown value as it crosses to the page: a StoreError keeps its code, anything else is INTERNAL. */
export function toSerializedError(error: unknown): SerializedError {
  const code = error instanceof StoreError ? error.code : 'INTERNAL';
  return { code, message: errorMessage(error) };
}
