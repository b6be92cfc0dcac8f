// One tab's part of the host protocol, as a state machine: `tabStep(state, event)` changes `state`
// and returns the effects to carry out, as data. No I/O, clock or timers in here: the driver
// (tab-relay.ts) turns Web Locks, BroadcastChannel, worker and page events into events and carries
// out the effects; the simulator (simulate.ts) does the same with simulated ones.
//
// Its job: exactly one tab of an origin owns the database (it holds the owner lock and runs the DB
// worker); every other tab relays its requests to that owner; a request never fails because the
// owner is starting or changing, it waits for the next one within its deadline; a newer version
// of the app takes the database over and an older one never writes to it again.
import { longRequestMs, ownerWaitMs } from './budgets';
import { expire, nextWake, refusal, requeue, settle, withDoubt } from './tab-requests';

import type { HostError, TabEffect, TabEvent, TabRole, TabState, TabWire } from './tab-types';
import { compareAppVersions } from './versions';

export type { HostError, OwnerInfo, TabEffect, TabEvent, TabRequestState, TabRole, TabState, TabWire } from './tab-types';

export function createTabState(id: string, version?: string): TabState {
  return { id, version, role: { kind: 'waiting' }, otherVersion: undefined, outdated: false, stoppedOnHide: false, requests: new Map(), serving: new Set(), lastAnswer: new Map() };
}

/** The messages a tab posts when it starts (the driver also asks for the lock). */
export function tabHello(state: TabState): TabWire {
  return { type: 'hello', from: state.id, ...(state.version ? { appVersion: state.version } : {}) };
}

/** A write that went to an owner that closed before answering it: it may have run there. */
const closedBeforeAnswering = 'The tab that owned the database closed before answering, so this change may or may not have been saved. Reload to check, then try again.';

/** The failures of opening the database that may pass by themselves (see onWire's 'hello'). */
const retryable: ReadonlySet<string> = new Set(['OPEN_FAILED', 'BUSY', 'SERVICE_UNAVAILABLE']);

const ownsLock = (role: TabRole) => role.kind === 'starting' || role.kind === 'owning' || role.kind === 'failed' || role.kind === 'handing-over';

/** One step of the machine. */
export function tabStep<R>(state: TabState, event: TabEvent<R>): TabEffect<R>[] {
  const out: TabEffect<R>[] = [];
  const { now } = event;
  const role = state.role;
  if (role.kind === 'closed') {
    if (event.type === 'dispatch') out.push(refusal(event.id, 'The Otto backend in this tab was stopped. Reload the tab.'));
    return out;
  }
  switch (event.type) {
    case 'dispatch':
      state.requests.set(event.id, {
        label: event.label,
        read: event.read,
        resend: event.resend,
        long: event.long,
        startedAt: now,
        deadline: event.deadline ?? now + (event.long ? longRequestMs : ownerWaitMs),
        sentTo: undefined,
        tried: event.tried === true,
        sentAt: now,
      });
      break;
    case 'lock-granted':
      if (state.outdated) {
        out.push({ type: 'release-lock' });
        break;
      }
      // The previous owner let the lock go, so it is gone: what it left unanswered comes here.
      state.role = { kind: 'starting' };
      out.push({ type: 'start-worker' }, { type: 'status' });
      reroute(state, state.id, out);
      break;
    case 'worker-ready':
      if (role.kind !== 'starting') break;
      state.role = { kind: 'owning', info: { ...event.info } };
      out.push({ type: 'hand-db-port' }, { type: 'post', message: ownerMessage(state) }, { type: 'status' }, { type: 'started' });
      break;
    case 'worker-failed':
      if (role.kind !== 'starting' && role.kind !== 'owning') break;
      state.role = { kind: 'failed', error: event.error };
      out.push({ type: 'post', message: { type: 'owner-failed', owner: state.id, error: event.error } }, { type: 'status' }, { type: 'start-failed', error: event.error });
      break;
    case 'owner-info':
      if (role.kind !== 'owning') break;
      state.role = { kind: 'owning', info: { ...event.info } };
      out.push({ type: 'post', message: ownerMessage(state) }, { type: 'status' });
      break;
    case 'worker-stopped':
      if (role.kind !== 'handing-over') break;
      out.push({ type: 'db-port-closed', stopped: true }, { type: 'terminate-worker' });
      state.role = { kind: 'waiting' };
      for (const request of state.requests.values()) if (request.sentTo === state.id) requeue(request);
      out.push({ type: 'release-lock' }, { type: 'status' });
      break;
    case 'worker-answer': {
      state.lastAnswer.set(state.id, now);
      const separator = event.key.indexOf('|');
      if (separator >= 0) {
        // Another tab's request: the answer goes back to it (moved or not; it decides).
        const [from, id] = [event.key.slice(0, separator), event.key.slice(separator + 1)];
        state.serving.delete(event.key);
        out.push({ type: 'post', message: { type: 'response', id, from: state.id, to: from, moved: event.moved }, payload: { response: event.response } });
        break;
      }
      const request = state.requests.get(event.key);
      if (!request) break;
      // Not run: the worker stopped to hand the database over; the next owner runs it.
      if (event.moved) requeue(request);
      else settle(state, event.key, event.response, event.failure, out);
      break;
    }
    case 'wire':
      onWire(state, event.message, event.response, event.failure, now, out);
      break;
    case 'db-port-wanted':
      // The service worker has no route: the owner hands its DB worker's port, any other tab its own.
      out.push({ type: role.kind === 'owning' ? 'hand-db-port' : 'offer-tab-port' });
      break;
    case 'page-hide':
      // Whatever the role: the service worker drops what this page sent and nobody has yet.
      out.push({ type: 'page-gone' });
      // Into the back/forward cache: the page may be frozen before anything it starts now ends (a
      // worker's stop, a lock's release that waits for it), and a frozen page that still held the
      // lock or the files would keep every other tab from the database. So it lets everything go
      // in this step, as a closing tab does, and reloads if it is shown again.
      if (event.persisted) {
        state.stoppedOnHide = true;
        return closeNow(state, out);
      }
      // A closing owner takes its DB worker with it: the service worker stops using its port at
      // once, the worker finishes what it has and lets the files go.
      if (role.kind !== 'owning' && role.kind !== 'starting') break;
      state.stoppedOnHide = true;
      state.role = { kind: 'handing-over' };
      out.push({ type: 'db-port-closed', stopped: false }, { type: 'stop-worker' });
      break;
    case 'close':
      return closeNow(state, out);
    case 'tick':
      expire(state, now, out);
      break;
  }
  route(state, now, out);
  out.push({ type: 'wake', at: nextWake(state) });
  return out;
}

/** Lets the worker, the lock and the lock's queue go at once; what this tab relays goes elsewhere. */
function closeNow<R>(state: TabState, out: TabEffect<R>[]): TabEffect<R>[] {
  if (ownsLock(state.role)) out.push({ type: 'db-port-closed', stopped: false }, { type: 'terminate-worker' });
  state.role = { kind: 'closed' };
  out.push({ type: 'leave-lock-queue' }, { type: 'release-lock' });
  // What its worker was running for other tabs goes back to them now, not after their silence runs
  // out, marked as possibly run: what is safe to send again goes to the next owner (a write is
  // replayed by its request id), the rest is refused with the doubt in words.
  for (const key of state.serving) {
    const separator = key.indexOf('|');
    out.push({ type: 'post', message: { type: 'response', id: key.slice(separator + 1), from: state.id, to: key.slice(0, separator), moved: true, mayHaveRun: true } });
  }
  state.serving.clear();
  // What this tab relays for the service worker is not lost: 'moved' lets it go elsewhere.
  for (const [id, request] of state.requests) {
    state.requests.delete(id);
    out.push({ ...refusal(id, 'The Otto backend in this tab was stopped.'), ...(request.resend ? { moved: true } : {}) });
  }
  // Nothing left to wake for.
  out.push({ type: 'wake', at: undefined });
  return out;
}

function onWire<R>(state: TabState, message: TabWire, response: R | undefined, failure: string | undefined, now: number, out: TabEffect<R>[]): void {
  const role = state.role;
  switch (message.type) {
    case 'hello':
      noteVersion(state, message.appVersion, out);
      if (role.kind === 'owning') out.push({ type: 'post', message: ownerMessage(state) });
      if (role.kind === 'failed' && retryable.has(role.error.code) && !state.outdated) {
        // A page opening is a person trying again: a failure that may have passed (the files held
        // by a worker that has since gone, a storage that was busy) is tried once more, and the
        // new page hears the outcome. A damaged file or a newer schema fails the same way again,
        // so those stay as they are (the recovery screen acts on them).
        state.role = { kind: 'starting' };
        out.push({ type: 'terminate-worker' }, { type: 'start-worker' }, { type: 'status' });
        return;
      }
      if (role.kind === 'failed') out.push({ type: 'post', message: { type: 'owner-failed', owner: state.id, error: role.error } });
      return;
    case 'owner': {
      if (ownsLock(state.role) || message.owner === state.id) return;
      const changed = role.kind !== 'following' || role.owner !== message.owner || role.failed !== undefined;
      state.role = { kind: 'following', owner: message.owner, info: message.info };
      noteVersion(state, message.info.appVersion, out);
      if (changed) reroute(state, message.owner, out);
      out.push({ type: 'status' }, { type: 'started' });
      return;
    }
    case 'owner-failed':
      if (ownsLock(state.role)) return;
      state.role = { kind: 'following', owner: message.owner, failed: message.error };
      out.push({ type: 'status' }, { type: 'start-failed', error: message.error });
      return;
    case 'request':
      if (message.to !== state.id) return;
      if (role.kind === 'owning' || role.kind === 'starting' || role.kind === 'failed') {
        // A failed owner's driver answers in words from the failure (no worker to run it).
        state.serving.add(`${message.from}|${message.id}`);
        out.push({ type: 'serve', key: `${message.from}|${message.id}` });
      } else {
        // Not the owner (any more): the asking tab sends it again to the next one.
        out.push({ type: 'post', message: { type: 'response', id: message.id, from: state.id, to: message.from, moved: true } });
      }
      return;
    case 'response': {
      // An owner answering any tab is alive and working through its queue.
      state.lastAnswer.set(message.from, now);
      if (message.to !== state.id) return;
      // The tab taken for the owner is not (any more): wait for the next one to announce itself.
      if (message.moved && role.kind === 'following' && role.owner === message.from) {
        state.role = { kind: 'waiting' };
        out.push({ type: 'status' });
      }
      const request = state.requests.get(message.id);
      if (!request) return;
      if (message.moved) {
        // Only the owner that has it now can hand it back (a late word from an earlier one is not news).
        if (request.sentTo !== message.from) return;
        if (message.mayHaveRun && !request.resend) {
          state.requests.delete(message.id);
          out.push(refusal(message.id, closedBeforeAnswering));
          return;
        }
        requeue(request);
      } else if (response !== undefined) settle(state, message.id, response, failure, out);
      return;
    }
  }
}

/**
 * Two versions of the app on one database: a newer build takes it over. An older tab leaves the
 * lock's queue, hands the database over if it owns it, and says so in its status.
 */
function noteVersion<R>(state: TabState, version: string | undefined, out: TabEffect<R>[]): void {
  if (!version || !state.version || version === state.version || state.otherVersion === version) return;
  state.otherVersion = version;
  out.push({ type: 'status' });
  if (compareAppVersions(version, state.version) <= 0 || state.outdated) return;
  state.outdated = true;
  out.push({ type: 'warn', message: `Another tab runs a newer Otto (${version}); this one runs ${state.version}. Reload to continue.` });
  if (state.role.kind === 'owning' || state.role.kind === 'starting' || state.role.kind === 'failed') {
    state.role = { kind: 'handing-over' };
    out.push({ type: 'stop-worker' });
  } else if (!ownsLock(state.role)) {
    out.push({ type: 'leave-lock-queue' });
  }
}

/** A new owner: what went to the old one unanswered is sent again if that is safe, else answered with the doubt. */
function reroute<R>(state: TabState, newOwner: string, out: TabEffect<R>[]): void {
  for (const [id, request] of state.requests) {
    if (request.sentTo === undefined || request.sentTo === newOwner) continue;
    if (request.resend) {
      requeue(request);
      continue;
    }
    state.requests.delete(id);
    out.push(refusal(id, closedBeforeAnswering));
  }
}

/** Sends every request that has no owner yet to the owner there is now. */
function route<R>(state: TabState, now: number, out: TabEffect<R>[]): void {
  const role = state.role;
  for (const [id, request] of state.requests) {
    if (request.sentTo !== undefined) continue;
    if (role.kind === 'owning' || role.kind === 'starting') {
      request.sentTo = state.id;
      request.sentAt = now;
      out.push({ type: 'serve', key: id });
    } else if (role.kind === 'failed' || (role.kind === 'following' && role.failed)) {
      const error = role.kind === 'failed' ? role.error : (role as { failed: HostError }).failed;
      state.requests.delete(id);
      out.push(refusal(id, withDoubt(request, error.message)));
    } else if (role.kind === 'following') {
      request.sentTo = role.owner;
      request.sentAt = now;
      out.push({ type: 'post', message: { type: 'request', id, from: state.id, to: role.owner }, payload: { key: id } });
    }
    // Waiting or handing over: it waits for the next owner to announce itself.
  }
}

function ownerMessage(state: TabState): TabWire {
  const info = state.role.kind === 'owning' ? state.role.info : { storage: 'memory' as const };
  return { type: 'owner', owner: state.id, info: { ...info, ...(state.version ? { appVersion: state.version } : {}) } };
}
