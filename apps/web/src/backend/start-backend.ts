// Placeholder until the in-browser backend lands: see the service-worker relay work.
export interface BackendStatus {
  role: 'leader' | 'follower';
  storage: 'opfs' | 'memory';
  fallbackReason?: string;
}

export interface BackendHandle {
  readonly status: BackendStatus;
  subscribe(listener: (status: BackendStatus) => void): () => void;
  deleteDatabase(): Promise<void>;
}

let started: Promise<BackendHandle> | undefined;

/** Starts the in-browser backend once; resolves when /api requests are answered. */
export function ensureBackend(): Promise<BackendHandle> {
  started ??= Promise.resolve({
    status: { role: 'leader', storage: 'memory' },
    subscribe: () => () => {},
    deleteDatabase: async () => {},
  });
  return started;
}
