import type { BackendHandle, BackendStatus } from '../backend/start-backend';

/** Stands in for the service-worker plumbing in jsdom; requests go straight to api.fetch. */
export function fakeBackendHandle(status: BackendStatus = { role: 'leader', storage: 'opfs' }): BackendHandle {
  return {
    status,
    subscribe: () => () => {},
    deleteDatabase: async () => {},
  } as unknown as BackendHandle;
}
