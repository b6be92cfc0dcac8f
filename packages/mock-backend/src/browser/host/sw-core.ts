// The service worker's part of the host protocol, as a state machine: `swStep(state, event)`
// changes `state` and returns the effects to carry out, as data. No I/O, clock or timers in here:
// the driver (service-worker-relay.ts) turns browser events into events, passes the time in each,
// and carries out the effects; the simulator (simulate.ts) does the same with simulated ones.
//
// Its job: answer every /api request from the database owner, whichever tab that is now, and
// never give up on a request because an owner is starting or changing. A request waits for a
// route (the owner's DB worker port, else a port to a tab, which relays to the owner) until
// `ownerWaitMs` has passed with none; once sent, only a database silent for `silenceMs` times it out.
import { askAgainMs, longRequestMs, ownerWaitMs, relayMarginMs, silenceMs, supersededGraceMs } from './budgets';

import type { PortId, SwEffect, SwEvent, SwRequestState, SwState } from './sw-types';

export type { OwnerRoute, PortId, SwEffect, SwEvent, SwRequestInfo, SwRequestState, SwState } from './sw-types';

type SentRequest = Extract<SwRequestState, { kind: 'sent' }>;

/** Back to waiting for a route, with the route it was on among the earlier ones. */
function waitAgain(request: SentRequest): SwRequestState {
  return { kind: 'waiting', info: request.info, startedAt: request.startedAt, earlier: [...request.earlier, request.port] };
}

export function createSwState(): SwState {
  return { owner: { kind: 'none' }, superseded: [], tabs: new Map(), askedAt: undefined, requests: new Map(), lastAnswer: new Map(), gone: new Set() };
}

/** One step of the machine. */
export function swStep<R>(state: SwState, event: SwEvent<R>): SwEffect<R>[] {
  const out: SwEffect<R>[] = [];
  const { now } = event;
  switch (event.type) {
    case 'fetch':
      prune(state, event.alive, event.aliveAt ?? now, out);
      state.requests.set(event.request.id, { kind: 'waiting', info: event.request, startedAt: now, earlier: [] });
      break;
    case 'owner-port': {
      const old = state.owner;
      if (old.kind === 'known' && old.port !== event.port) {
        state.superseded.push({ owner: old.owner, port: old.port, retireAt: old.owner === event.owner ? undefined : now + supersededGraceMs });
      }
      state.owner = { kind: 'known', owner: event.owner, port: event.port };
      break;
    }
    case 'owner-closed': {
      const ports = state.superseded.filter((s) => s.owner === event.owner).map((s) => s.port);
      state.superseded = state.superseded.filter((s) => s.owner !== event.owner);
      if (state.owner.kind === 'known' && state.owner.owner === event.owner) {
        ports.push(state.owner.port);
        state.owner = { kind: 'none' };
      }
      for (const port of ports) retire(state, port, event.stopped ? 'unrun' : 'closed', out);
      break;
    }
    case 'tab-port':
      state.tabs.set(event.clientId, event.port);
      break;
    case 'answer': {
      state.lastAnswer.set(event.port, now);
      const request = state.requests.get(event.id);
      if (!request) break;
      if (request.kind !== 'sent' || request.port !== event.port) {
        // A real answer from a route it was on before: that route ran it, and that is the answer.
        if (request.earlier.includes(event.port) && !event.moved && !event.failure) {
          state.requests.delete(event.id);
          out.push({ type: 'respond', id: event.id, response: event.response });
        }
        break;
      }
      if (!event.moved) {
        state.requests.delete(event.id);
        // Refused where it is now, after an earlier route may have run it: the refusal says so.
        if (event.failure && !/may or may not/.test(event.failure) && !request.info.read && request.earlier.length > 0) {
          out.push(unavailable(event.id, `${event.failure.replace(/\.$/, '')}, and ${request.info.label} was on its way to a tab that closed, so this change may or may not have been saved. Reload to check, then try again.`));
        } else out.push({ type: 'respond', id: event.id, response: event.response });
        break;
      }
      // Not run: the owner is handing over (or the tab that relayed it is closing). Wait for the next.
      state.requests.set(event.id, waitAgain(request));
      if (state.owner.kind === 'known' && state.owner.port === event.port) state.owner = { kind: 'none' };
      // A relaying tab that is closing: what is still on its way to it goes elsewhere too.
      else if (request.via === 'tab') retire(state, event.port, 'closed', out);
      break;
    }
    case 'page-gone':
      state.gone.add(event.clientId);
      break;
    case 'tick':
      prune(state, event.alive, event.aliveAt ?? now, out);
      for (const s of [...state.superseded]) {
        if (s.retireAt !== undefined && s.retireAt <= now) {
          state.superseded.splice(state.superseded.indexOf(s), 1);
          retire(state, s.port, 'closed', out);
        }
      }
      expire(state, now, out);
      break;
  }
  route(state, now, out);
  out.push({ type: 'wake', at: nextWake(state, now) });
  return out;
}

/** Forgets the ports of pages that are gone; what they were relaying goes elsewhere. */
function prune<R>(state: SwState, alive: readonly string[] | undefined, aliveAt: number, out: SwEffect<R>[]): void {
  if (!alive) return;
  for (const request of state.requests.values()) {
    // A page that sent something after the driver looked may be newer than the list.
    if (request.startedAt <= aliveAt && request.info.clientId && !alive.includes(request.info.clientId)) state.gone.add(request.info.clientId);
  }
  for (const [clientId, port] of [...state.tabs]) if (!alive.includes(clientId)) retire(state, port, 'closed', out);
  // An owner page that crashed says nothing: its DB worker went with it.
  for (const s of [...state.superseded]) {
    if (alive.includes(s.owner)) continue;
    state.superseded.splice(state.superseded.indexOf(s), 1);
    retire(state, s.port, 'closed', out);
  }
  if (state.owner.kind === 'known' && !alive.includes(state.owner.owner)) {
    const { port } = state.owner;
    state.owner = { kind: 'none' };
    retire(state, port, 'closed', out);
  }
  // A request left on a port that is no longer any route (a timed-out or replaced one) goes elsewhere.
  const routes = new Set<PortId>([...state.tabs.values(), ...state.superseded.map((s) => s.port)]);
  if (state.owner.kind === 'known') routes.add(state.owner.port);
  for (const request of state.requests.values()) if (request.kind === 'sent' && !routes.has(request.port)) retire(state, request.port, 'closed', out);
}

/**
 * A port that is gone with requests on it. `unrun`: its worker stopped first, so nothing on it
 * ran: all of it goes to the next owner. `closed`: it may have run; what is safe to send again is
 * sent again (the database answers a repeated request id with the first answer), the rest is
 * answered with the doubt in words.
 */
function retire<R>(state: SwState, port: PortId, why: 'unrun' | 'closed', out: SwEffect<R>[]): void {
  for (const [id, request] of state.requests) {
    if (request.kind !== 'sent' || request.port !== port) continue;
    if (why === 'unrun' || request.info.resend) {
      state.requests.set(id, waitAgain(request));
    } else {
      state.requests.delete(id);
      out.push(unavailable(id, `The tab that owned the database closed before answering ${request.info.label}, so this change may or may not have been saved. Reload to check, then try again.`));
    }
  }
  for (const [clientId, p] of state.tabs) if (p === port) state.tabs.delete(clientId);
  state.lastAnswer.delete(port);
  out.push({ type: 'close-port', port });
}

/** Answers what is past its budget: 503 when no route came in time, 504 when the database went silent. */
function expire<R>(state: SwState, now: number, out: SwEffect<R>[]): void {
  for (const [id, request] of state.requests) {
    const { label } = request.info;
    if (request.kind === 'waiting') {
      const limit = request.startedAt + (request.info.long ? longRequestMs : ownerWaitMs);
      if (now < limit) continue;
      state.requests.delete(id);
      out.push(unavailable(id,
          request.earlier.length > 0 && !request.info.read
            ? `The tab that had ${label} closed, and no other tab could take it within ${ownerWaitMs / 1000} seconds, so this change may or may not have been saved. Reload to check, then try again.`
            : `No open Otto tab answered ${label} within ${ownerWaitMs / 1000} seconds: the in-browser backend is not running. Open Otto in a tab (or reload it) and try again.`));
      continue;
    }
    if (now < silentUntil(state, request)) continue;
    state.requests.delete(id);
    // The port may be dead: the next request asks for a fresh one.
    if (state.owner.kind === 'known' && state.owner.port === request.port) state.owner = { kind: 'none' };
    for (const [clientId, port] of state.tabs) if (port === request.port) state.tabs.delete(clientId);
    const seconds = Math.round((now - request.startedAt) / 1000);
    out.push({
      type: 'refuse',
      id,
      status: 504,
      code: 'TIMEOUT',
      message: request.info.read
        ? `The in-browser backend did not answer ${label} within ${seconds} seconds. Try again; if it keeps happening, reload the tab.`
        : `The in-browser backend did not answer ${label} within ${seconds} seconds, so this change may or may not have been saved. Reload to check, then try again.`,
    });
  }
}

/**
 * When a sent request times out: `silenceMs` after the later of its sending and its port's last
 * answer, within `longRequestMs`. A tab that relays it answers by itself (503 when no owner came
 * within `ownerWaitMs`, 504 when the owner went silent): the service worker waits a moment longer.
 */
function silentUntil(state: SwState, request: Extract<SwRequestState, { kind: 'sent' }>): number {
  const cap = request.startedAt + longRequestMs;
  if (request.info.long) return cap;
  if (request.via === 'tab') return Math.min(cap, Math.max(request.startedAt + ownerWaitMs, Math.max(request.sentAt, state.lastAnswer.get(request.port) ?? 0)) + silenceMs + relayMarginMs);
  return Math.min(cap, Math.max(request.sentAt, state.lastAnswer.get(request.port) ?? 0) + silenceMs);
}

/** Sends every waiting request on the best route there is; asks the tabs for one when there is none. */
function route<R>(state: SwState, now: number, out: SwEffect<R>[]): void {
  let asked = false;
  for (const [id, request] of state.requests) {
    if (request.kind !== 'waiting') continue;
    if (state.gone.has(request.info.clientId)) {
      // Its page is gone: not sent (again), so it cannot land late behind a newer write.
      state.requests.delete(id);
      out.push(unavailable(id, `The page that sent ${request.info.label} was closed.`));
      continue;
    }
    const via = state.owner.kind === 'known' ? 'owner' : 'tab';
    const port = state.owner.kind === 'known' ? state.owner.port : (state.tabs.get(request.info.clientId) ?? lastOf(state.tabs));
    if (port !== undefined) {
      state.requests.set(id, { kind: 'sent', info: request.info, startedAt: request.startedAt, port, sentAt: now, via, earlier: request.earlier });
      // A relaying tab refuses it, unrun, if no owner has it by then.
      out.push({ type: 'send', port, id, deadline: request.startedAt + (request.info.long ? longRequestMs : ownerWaitMs), tried: request.earlier.length > 0 });
      continue;
    }
    // No route: ask (again, every `askAgainMs`: a message that reached a page before it listened is lost).
    if (state.askedAt !== undefined && now - state.askedAt < askAgainMs && !asked) continue;
    if (!asked) out.push({ type: 'ask-tabs' });
    asked = true;
    if (request.info.clientId && !out.some((e) => e.type === 'ask-tab' && e.clientId === request.info.clientId)) {
      out.push({ type: 'ask-tab', clientId: request.info.clientId });
    }
  }
  if (asked) state.askedAt = now;
  if (![...state.requests.values()].some((r) => r.kind === 'waiting')) state.askedAt = undefined;
}

/** A 503 in words. */
function unavailable<R>(id: number, message: string): SwEffect<R> {
  return { type: 'refuse', id, status: 503, code: 'SERVICE_UNAVAILABLE', message };
}

/** The port of the page that told us last. */
function lastOf(tabs: Map<string, PortId>): PortId | undefined {
  return [...tabs.values()].at(-1);
}

function nextWake(state: SwState, now: number): number | undefined {
  let at = Infinity;
  for (const request of state.requests.values()) {
    if (request.kind === 'waiting') {
      at = Math.min(at, request.startedAt + (request.info.long ? longRequestMs : ownerWaitMs));
      if (state.askedAt !== undefined) at = Math.min(at, state.askedAt + askAgainMs);
    } else {
      at = Math.min(at, silentUntil(state, request));
      // The page that relays it, or owns the database, may be gone without a word: look again soon.
      at = Math.min(at, now + askAgainMs);
    }
  }
  for (const s of state.superseded) if (s.retireAt !== undefined) at = Math.min(at, s.retireAt);
  return at === Infinity ? undefined : at;
}
