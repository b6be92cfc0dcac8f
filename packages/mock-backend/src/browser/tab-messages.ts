import type { SerializedError, SerializedRequest, SerializedResponse } from './protocol';

/** What the owning tab tells the others about the database. */
export interface LeaderAnnouncement {
  storage: 'opfs' | 'indexeddb' | 'memory';
  fallbackReason?: string;
  appVersion?: string;
}

/**
 * Messages on the BroadcastChannel between the tabs of one origin. Requests and calls are
 * addressed to the owner tab (`to`), answers to the tab that asked; ids are unique per tab.
 */
export type TabMessage =
  | { type: 'hello'; from: string; appVersion?: string }
  | { type: 'leader'; leaderId: string; status: LeaderAnnouncement }
  | { type: 'leader-failed'; leaderId: string; error: SerializedError }
  | { type: 'request'; id: string; from: string; to: string; request: SerializedRequest }
  | { type: 'response'; id: string; from: string; to: string; response: SerializedResponse }
  | {
      type: 'call';
      id: string;
      from: string;
      to: string;
      op: 'delete-database' | 'export-database' | 'restore-database';
      bytes?: ArrayBuffer;
    }
  | { type: 'result'; id: string; to: string; bytes?: ArrayBuffer; error?: SerializedError };
