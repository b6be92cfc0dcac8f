// What a tab says of the database (its BackendStatus), and the small translations its driver
// (tab-relay.ts) makes between the DB worker's and the machine's words.
import { ApiError } from '../runtime/api-error';
import type { HostError, TabState } from './host/tab-core';
import { errorMessage, relayErrorSerialized, type SerializedResponse, type WorkerBackendInfo } from './protocol';
import type { BackendStatus } from './types';

/** The status a tab reports for the machine's state; `previous` is kept through a hand-over. */
export function statusOf(state: TabState, previous: BackendStatus | undefined): BackendStatus | undefined {
  const role = state.role;
  const keep = (s: Pick<BackendStatus, 'storage' | 'fallbackReason'>) => ({ storage: s.storage, ...(s.fallbackReason ? { fallbackReason: s.fallbackReason } : {}) });
  let base: BackendStatus | undefined;
  if (role.kind === 'owning') base = { role: 'leader', ...keep(role.info) };
  else if (role.kind === 'following' && role.info) base = { role: 'follower', ...keep(role.info) };
  // Between owners a tab follows what it knew; a failed one keeps its last role.
  else if (previous) base = { role: role.kind === 'failed' ? previous.role : 'follower', ...keep(previous) };
  if (!base) return undefined;
  return { ...base, ...(state.otherVersion ? { otherVersion: state.otherVersion } : {}), ...(state.outdated ? { outdated: true } : {}) };
}

export function infoOf(info: WorkerBackendInfo): { storage: WorkerBackendInfo['storage']; fallbackReason?: string } {
  return { storage: info.storage, ...(info.fallbackReason ? { fallbackReason: info.fallbackReason } : {}) };
}

export function hostError(error: unknown): HostError {
  // The store's code (when the database itself failed) lets every tab offer recovery.
  const storeCode = (error as { cause?: { storeCode?: unknown } } | undefined)?.cause?.storeCode;
  return { code: typeof storeCode === 'string' ? storeCode : error instanceof ApiError ? error.code : 'SERVICE_UNAVAILABLE', message: errorMessage(error) };
}


export function unavailable(message: string): SerializedResponse {
  return relayErrorSerialized(503, 'SERVICE_UNAVAILABLE', message);
}

/** What a tab that has not started yet is waiting for, in words (for a start that took too long). */
export function waitingFor(state: TabState): string {
  switch (state.role.kind) {
    case 'waiting':
      return state.outdated
        ? 'a newer version of Otto is open in another tab'
        : 'its turn to open the database: another tab (or one just closed) still holds it and has not answered';
    case 'following':
      return 'the tab that holds the database to say it is ready';
    case 'starting':
      return 'the database to open in this tab';
    case 'handing-over':
      return 'this tab to hand the database to a newer version of Otto';
    case 'owning':
    case 'failed':
    case 'closed':
      return '';
  }
}
