// How the DB worker tells the tabs how sync stands (issue 40, decision 0163); free of the backend's
// code, so a tab's bundle can take it.
import type { SyncNotice } from '../sync/device-sync';

export type { SyncNotice };

/**
 * The BroadcastChannel the worker tells the tabs how sync stands on, and hears dismissals on.
 * @example
 * new BroadcastChannel(syncChannelName).onmessage = (e) => console.log(e.data); // { type: 'sync-state', state }
 */
export const syncChannelName = 'otto-sync';

/**
 * How sync stands, as the tabs are told it (`otto-sync` channel, `{ type: 'sync-state', state }`).
 * @example
 * const words = (s: SyncStatus) => (s.waiting ? `${s.waiting} changes waiting` : 'Synced');
 */
export interface SyncStatus {
  /** Writes made here the server has not run. */
  waiting: number;
  /** Writes the server refused. */
  notices: SyncNotice[];
  /** The oldest writes waiting (at most 20). */
  waitingList: Omit<SyncNotice, 'answer'>[];
  /** When the last sync reached the server (epoch ms), if ever. */
  lastSyncedAt: number | null;
  /** Since when the server could not be reached, or null while it can. */
  offlineSince: number | null;
  /** Why, in words, when it could not. */
  problem: string | null;
  /** The first sync (the whole data coming down) is not done yet. */
  firstSync: boolean;
  /** Records taken in by the sync running now (progress of a first sync). */
  pulled: number;
  syncing: boolean;
  /**
   * The team server's data is newer than this Otto knows: nothing is sent until the page is
   * reloaded (updated); changes wait on the device meanwhile (decision 0168).
   */
  updateRequired: boolean;
}

/**
 * A message of the `otto-sync` channel: the worker's state, or a tab's dismissal, retry (of a write
 * set aside because the server kept failing it) or "sync now".
 * @example
 * channel.postMessage({ type: 'sync-dismiss', requestId } satisfies SyncMessage);
 */
export type SyncMessage =
  | { type: 'sync-state'; state: SyncStatus }
  | { type: 'sync-dismiss'; requestId: string }
  | { type: 'sync-retry'; requestId: string }
  | { type: 'sync-now' };

