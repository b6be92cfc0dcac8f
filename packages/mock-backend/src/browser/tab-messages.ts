import type { TabWire } from './host/tab-core';
import { isMoved, movedAnswer, type SerializedError, type SerializedRequest, type SerializedResponse } from './protocol';

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
  | { type: 'response'; id: string; from: string; to: string; response: SerializedResponse; mayHaveRun?: boolean }
  | {
      type: 'call';
      id: string;
      from: string;
      to: string;
      op: 'delete-database' | 'export-database' | 'restore-database';
      /** The backup a restore puts in place (a Blob: a file of any size goes by reference, never copied whole). */
      backup?: Blob;
    }
  | { type: 'result'; id: string; to: string; bytes?: ArrayBuffer; error?: SerializedError };

/**
 * The machine's message as it goes on the channel, with its request's or response's bytes. The
 * wire keeps the names of earlier versions (`leader`…), so that an older tab understands a newer one.
 */
export function toWire(message: TabWire, bytes: SerializedRequest | SerializedResponse | undefined): TabMessage | undefined {
  switch (message.type) {
    case 'hello':
      return message;
    case 'owner':
      return { type: 'leader', leaderId: message.owner, status: message.info };
    case 'owner-failed':
      return { type: 'leader-failed', leaderId: message.owner, error: message.error };
    case 'request':
      return bytes && 'method' in bytes ? { type: 'request', id: message.id, from: message.from, to: message.to, request: bytes } : undefined;
    case 'response':
      return {
        type: 'response',
        id: message.id,
        from: message.from,
        to: message.to,
        response: bytes && 'status' in bytes ? bytes : movedAnswer,
        ...(message.mayHaveRun ? { mayHaveRun: true } : {}),
      };
  }
}

/** A message from the channel as the machine takes it (database operations are not the machine's). */
export function fromWire(message: TabMessage | null | undefined): TabWire | undefined {
  switch (message?.type) {
    case 'hello':
      return message;
    case 'leader':
      return { type: 'owner', owner: message.leaderId, info: message.status };
    case 'leader-failed':
      return { type: 'owner-failed', owner: message.leaderId, error: message.error };
    case 'request':
      return { type: 'request', id: message.id, from: message.from, to: message.to };
    case 'response':
      return {
        type: 'response',
        id: message.id,
        from: message.from,
        to: message.to,
        moved: isMoved(message.response),
        ...(message.mayHaveRun ? { mayHaveRun: true } : {}),
      };
    default:
      return undefined;
  }
}
