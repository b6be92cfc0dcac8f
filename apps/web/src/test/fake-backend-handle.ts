import type { ChangeEvent } from '@otto/api-contract';
import type { BackendHandle, BackendStatus } from '../backend/start-backend';

/** Listeners of the fake backend's change feed; `renderApp` feeds them from the mock API. */
export const fakeChangeListeners = new Set<(event: ChangeEvent) => void>();

/** Stands in for the service-worker plumbing in jsdom; requests go straight to api.fetch. */
export function fakeBackendHandle(status: BackendStatus = { role: 'leader', storage: 'opfs' }): BackendHandle {
  return {
    status,
    subscribe: () => () => {},
    onChange: (listener: (event: ChangeEvent) => void) => {
      fakeChangeListeners.add(listener);
      return () => fakeChangeListeners.delete(listener);
    },
    deleteDatabase: async () => {},
  } as unknown as BackendHandle;
}
