// A tab's requests in its machine (tab-core.ts): when each runs out, and the words it is refused in
// (a write that may have run on an owner that closed says so).
import { longRequestMs, silenceMs } from './budgets';
import type { TabEffect, TabRequestState, TabState } from './tab-types';

export function expire<R>(state: TabState, now: number, out: TabEffect<R>[]): void {
  for (const [id, request] of state.requests) {
    if (now < expiresAt(state, request)) continue;
    state.requests.delete(id);
    out.push(
      request.sentTo === undefined
        ? refusal(id, withDoubt(request, `No tab could open the database for ${request.label} in time. Reload the tab and try again.`))
        : {
            type: 'refuse',
            id,
            status: 504,
            code: 'TIMEOUT',
            message: request.read
              ? `The in-browser database did not answer ${request.label} in time. Try again; if it keeps happening, reload the tab.`
              : `The in-browser database did not answer ${request.label} in time, so this change may or may not have been saved. Reload to check, then try again.`,
          },
    );
  }
}

export function expiresAt(state: TabState, request: TabRequestState): number {
  if (request.sentTo === undefined || request.long) return request.deadline;
  // Silence from the owner, not waiting, counts: an owner that answers others since this went to it
  // is working through a queue, and the request may take up to `longRequestMs` in all.
  const lastAnswer = state.lastAnswer.get(request.sentTo) ?? 0;
  const quiet = Math.max(request.sentAt, lastAnswer) + silenceMs;
  if (lastAnswer > request.sentAt) return Math.min(quiet, request.startedAt + longRequestMs);
  // A silent one gets what is left of the request's budget (its owner deadline, then the silence):
  // one sent again to a new owner, the last having crashed with it, does not start it over.
  return Math.min(request.sentAt, request.deadline) + silenceMs;
}

/** The answer goes to whoever asked; a refusal of a write that may have run on an earlier owner says so. */
export function settle<R>(state: TabState, id: string, response: R, failure: string | undefined, out: TabEffect<R>[]): void {
  const request = state.requests.get(id);
  state.requests.delete(id);
  if (failure && request && !/may or may not/.test(failure) && withDoubt(request, failure) !== failure) out.push(refusal(id, withDoubt(request, failure)));
  else out.push({ type: 'settle', id, response });
}

/** Back to waiting for an owner, after one had it (and may have run it). */
export function requeue(request: TabRequestState): void {
  request.sentTo = undefined;
  request.tried = true;
}

/** A write that was on its way to an owner before may have run there: its refusal says so. */
export function withDoubt(request: TabRequestState, message: string): string {
  if (request.read || !request.tried) return message;
  return `${message.replace(/\.$/, '')}, and ${request.label} was on its way to a tab that closed, so this change may or may not have been saved. Reload to check, then try again.`;
}

export function refusal<R>(id: string, message: string): TabEffect<R> {
  return { type: 'refuse', id, status: 503, code: 'SERVICE_UNAVAILABLE', message };
}

export function nextWake(state: TabState): number | undefined {
  let at = Infinity;
  for (const request of state.requests.values()) at = Math.min(at, expiresAt(state, request));
  return at === Infinity ? undefined : at;
}
