// What a tab's driver of the host protocol (tab-relay.ts) is given and what it offers the page.
import type { DatabaseOp } from './owner-calls';
import type { Logger } from '../logger';
import type { Relayed, SerializedRequest, SerializedResponse } from './protocol';
import type { BackendStatus } from './types';

export interface TabRelayOptions {
  createWorker: () => Worker;
  appVersion?: string | undefined;
  lockName: string;
  channelName: string;
  /** How long this tab's own requests wait for an owner before 503. */
  ownerWaitMs?: number | undefined;
  /** Hand the service worker a port straight to the DB worker (when this tab owns the database). */
  directPort: boolean;
  /** Give the service worker a port to this tab (INIT_PORT), when it asks for a route and this tab is no owner. */
  offerPort?: () => void;
  logger: Logger;
}

/** One tab's part in the group of tabs that share one database. */
export interface TabRelay {
  /** Undefined until the database is ready, here or in the owner tab. */
  readonly status: BackendStatus | undefined;
  /** Resolves once this tab can answer requests (it owns a ready database, or knows the owner that does). */
  readonly started: Promise<void>;
  /** What this tab waits for before it can answer, in words; empty once it can. */
  waitingFor(): string;
  subscribe(listener: (status: BackendStatus) => void): () => void;
  /**
   * Answers a request from the database, wherever it is; never rejects. `relayed`: what the
   * service worker says of a request it sends through this tab (by when an owner must have it,
   * whether it was on its way somewhere before).
   */
  dispatch(request: SerializedRequest, relayed?: Relayed): Promise<SerializedResponse>;
  /** Runs a database operation in the owner tab. */
  call(op: DatabaseOp, backup?: Blob): Promise<ArrayBuffer | undefined>;
  close(): void;
}
