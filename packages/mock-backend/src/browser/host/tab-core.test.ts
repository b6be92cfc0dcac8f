// Two schedules the long simulator run found (seed 653093 of 1,000,000), pinned as steps of the tab
// machine: an owner that closes while it runs another tab's requests, and a request whose second
// owner crashed with it.
import { describe, expect, it } from 'vitest';
import { ownerWaitMs, silenceMs } from './budgets';
import { createTabState, tabStep, type TabEffect, type TabState } from './tab-core';

type Response = { status: number };

function follower(owner: string): TabState {
  const state = createTabState('t1', '1');
  state.role = { kind: 'following', owner, info: { storage: 'opfs', appVersion: '1' } };
  return state;
}

const wakeOf = (effects: TabEffect<Response>[]) => effects.filter((effect) => effect.type === 'wake').at(-1);

describe('the tab machine', () => {
  it('hands back at once what its worker ran for other tabs when it closes', () => {
    const owner = createTabState('t4', '1');
    tabStep<Response>(owner, { type: 'lock-granted', now: 0 });
    tabStep<Response>(owner, { type: 'worker-ready', now: 10, info: { storage: 'opfs' } });
    const served = tabStep<Response>(owner, { type: 'wire', now: 20, message: { type: 'request', id: 'a', from: 't1', to: 't4' } });
    expect(served).toContainEqual({ type: 'serve', key: 't1|a' });
    tabStep<Response>(owner, { type: 'wire', now: 21, message: { type: 'request', id: 'b', from: 't1', to: 't4' } });
    // `a` is answered; `b` is still in the worker when the tab closes.
    tabStep<Response>(owner, { type: 'worker-answer', now: 30, key: 't1|a', moved: false, response: { status: 201 } });

    const closing = tabStep<Response>(owner, { type: 'close', now: 40 });

    const handedBack = closing.filter((effect) => effect.type === 'post');
    expect(handedBack).toEqual([{ type: 'post', message: { type: 'response', id: 'b', from: 't4', to: 't1', moved: true, mayHaveRun: true } }]);
  });

  it('sends what comes back from a closing owner to the next one, saying a write may have run', () => {
    const asker = follower('t4');
    tabStep<Response>(asker, { type: 'dispatch', now: 0, id: 'w', label: 'POST /api/customers', read: false, resend: true, long: false, deadline: ownerWaitMs });
    expect(asker.requests.get('w')?.sentTo).toBe('t4');

    tabStep<Response>(asker, { type: 'wire', now: 50, message: { type: 'response', id: 'w', from: 't4', to: 't1', moved: true, mayHaveRun: true } });
    expect(asker.role.kind).toBe('waiting');
    expect(asker.requests.get('w')).toMatchObject({ sentTo: undefined, tried: true });

    // No owner comes within the request's wait: refused in words, with the doubt.
    const refused = tabStep<Response>(asker, { type: 'tick', now: ownerWaitMs });
    expect(refused).toContainEqual(expect.objectContaining({ type: 'refuse', id: 'w', status: 503, message: expect.stringMatching(/may or may not have been saved/) }));
  });

  it('does not start the silence over when a request goes to a second owner', () => {
    const asker = createTabState('t1', '1');
    tabStep<Response>(asker, { type: 'dispatch', now: 0, id: 'r', label: 'GET /api/customers', read: true, resend: true, long: false, deadline: ownerWaitMs });
    // t3 announces itself late in the request's wait and crashes with it; t4 announces itself just
    // before t3's silence runs out, then crashes too.
    const owner = (id: string) => ({ type: 'owner' as const, owner: id, info: { storage: 'opfs' as const, appVersion: '1' } });
    tabStep<Response>(asker, { type: 'wire', now: 9_000, message: owner('t3') });
    const resent = tabStep<Response>(asker, { type: 'wire', now: 18_990, message: owner('t4') });
    expect(resent).toContainEqual(expect.objectContaining({ type: 'post', message: expect.objectContaining({ type: 'request', id: 'r', to: 't4' }) }));

    // It is answered by the end of its budget (its owner wait, then one silence), not a silence after the resend.
    expect(wakeOf(resent)).toEqual({ type: 'wake', at: ownerWaitMs + silenceMs });
    const timedOut = tabStep<Response>(asker, { type: 'tick', now: ownerWaitMs + silenceMs });
    expect(timedOut).toContainEqual(expect.objectContaining({ type: 'refuse', id: 'r', status: 504 }));
  });

  it('waits longer for an owner that answers others after it got the request (a queue, not a dead owner)', () => {
    const asker = follower('t3');
    tabStep<Response>(asker, { type: 'dispatch', now: 0, id: 'r', label: 'GET /api/customers', read: true, resend: true, long: false, deadline: ownerWaitMs });
    const busy = tabStep<Response>(asker, { type: 'wire', now: 15_000, message: { type: 'response', id: 'other', from: 't3', to: 't2', moved: false } });
    expect(wakeOf(busy)).toEqual({ type: 'wake', at: 15_000 + silenceMs });
  });

  it('refuses in words, not again elsewhere, a handed-back write that is not safe to send twice', () => {
    const asker = follower('t4');
    tabStep<Response>(asker, { type: 'dispatch', now: 0, id: 'w', label: 'POST /api/customers', read: false, resend: false, long: false, deadline: ownerWaitMs });
    const out = tabStep<Response>(asker, { type: 'wire', now: 50, message: { type: 'response', id: 'w', from: 't4', to: 't1', moved: true, mayHaveRun: true } });
    expect(out).toContainEqual(expect.objectContaining({ type: 'refuse', id: 'w', status: 503, message: expect.stringMatching(/may or may not have been saved/) }));
    expect(asker.requests.has('w')).toBe(false);
  });

  it('takes a hand-back only from the owner that has the request now', () => {
    const asker = follower('t3');
    tabStep<Response>(asker, { type: 'dispatch', now: 0, id: 'r', label: 'GET /api/customers', read: true, resend: true, long: false, deadline: ownerWaitMs });
    tabStep<Response>(asker, { type: 'wire', now: 10, message: { type: 'owner', owner: 't4', info: { storage: 'opfs', appVersion: '1' } } });
    expect(asker.requests.get('r')?.sentTo).toBe('t4');
    // t3's late word about it changes nothing: t4 has it.
    const late = tabStep<Response>(asker, { type: 'wire', now: 20, message: { type: 'response', id: 'r', from: 't3', to: 't1', moved: true, mayHaveRun: true } });
    expect(asker.requests.get('r')?.sentTo).toBe('t4');
    expect(late.some((effect) => effect.type === 'post' && effect.message.type === 'request')).toBe(false);
  });

  it('takes no newer-build hand-over from a development build, nor lets a dated build yield to one', () => {
    for (const [mine, theirs, yields] of [
      ['20261207T200000Z', 'dev', false],
      ['dev', '20261207T200000Z', false],
      ['20261207T200000Z', '99991231T000000Z', true],
      ['9', '10', true],
    ] as const) {
      const owner = createTabState('t4', mine);
      tabStep<Response>(owner, { type: 'lock-granted', now: 0 });
      tabStep<Response>(owner, { type: 'worker-ready', now: 10, info: { storage: 'opfs' } });
      const effects = tabStep<Response>(owner, { type: 'wire', now: 20, message: { type: 'hello', from: 't1', appVersion: theirs } });
      expect(owner.outdated === true, `${mine} beside ${theirs}`).toBe(yields);
      expect(effects.some((effect) => effect.type === 'stop-worker'), `${mine} beside ${theirs}`).toBe(yields);
    }
  });
});
