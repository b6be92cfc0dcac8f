// Every time budget of the browser host, in one table, each with its reason. A request has one
// deadline (set where it enters the host); the relays on its way carry that deadline instead of
// starting timers of their own.
import { checkBudgetMs } from '../../database/backup-limits';
import { longRequestTimeoutMs } from '../protocol';

/**
 * How long a request may wait for a database owner, from the moment it entered the host: a page's
 * own backend starting (SQLite loads, the database opens), an owner tab closing and the next one
 * taking the lock, a crashed owner's files being released, an update's hand-over. Only after this
 * long with nobody able to answer is it refused (503), in words.
 */
export const ownerWaitMs = 10_000;

/**
 * How long a database that has the request may stay silent before the request is answered 504.
 * Silence, not waiting: an owner that answers other requests is working through a queue (a burst
 * of writes on a slow machine), so every answer it gives restarts this, up to `longRequestMs`.
 */
export const silenceMs = 10_000;

/**
 * The most any request may take: an import of many rows, or its undo (the contract's `longRunning`).
 * @example
 * const importTimeoutMs = longRequestMs + 2_000; // a client's own limit, past the host's
 */
export const longRequestMs = longRequestTimeoutMs;

/** How much longer the service worker waits for a tab that relays a request than the tab itself does: its answer comes first. */
export const relayMarginMs = 1_000;

/** How often a waiting request asks the tabs again for a route (a message may land before a page listens). */
export const askAgainMs = 1_000;

/**
 * How long a previous owner's port may still answer what it has after a new owner's port arrived
 * (a tab that crashed never says its port closed); what is left on it then goes to the new owner.
 */
export const supersededGraceMs = 2_000;

/** A database operation run in the owner tab for another tab (export, restore, delete). */
export const callTimeoutMs = 30_000;

/**
 * A restore run in the owner tab for another tab: the operation's own time, the check's budget for
 * a file of that size, and a second per 10 MB to copy it twice (into the check's scratch file, then
 * in place of the database).
 */
export function restoreTimeoutMs(backup: Blob | undefined): number {
  const bytes = backup?.size ?? 0;
  return callTimeoutMs + checkBudgetMs(bytes) + bytes / 1024 / 1024 / 10 * 1000;
}

/** How long start-up (control, election, the database's open, migration, seeding) may take. */
export const startTimeoutMs = 30_000;

/** How long a DB worker waits for the previous owner's worker to let the files go. */
export const filesWaitMs = 10_000;

/** The latest moment a request that entered the host at `startedAt` may be answered. */
export function finalDeadline(startedAt: number): number {
  return startedAt + longRequestMs;
}

/**
 * How long the host takes, at most, to answer an ordinary request when the database goes silent (an
 * owner found within `ownerWaitMs`, then `silenceMs` of silence, the relay's margin): a client's own
 * time limit set past it never cuts off the host's answer in words for a dead owner. An owner that
 * keeps answering others is working through a queue, and its request may take longer (up to
 * `longRequestMs`).
 * @example
 * configureMyClient({ timeoutMs: requestBudgetMs + 2_000 });
 */
export const requestBudgetMs = ownerWaitMs + silenceMs + relayMarginMs;
