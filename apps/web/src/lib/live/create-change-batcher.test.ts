import type { ChangeEvent } from '@otto/api-contract';
import { describe, expect, it } from 'vitest';
import { createChangeBatcher } from './create-change-batcher';

/** A clock and timers moved by hand. */
function manualTime() {
  let t = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let nextId = 1;
  return {
    now: () => t,
    setTimer: (run: () => void, ms: number) => {
      const id = nextId++;
      timers.push({ at: t + ms, run, id });
      return id;
    },
    clearTimer: (id: unknown) => {
      timers = timers.filter((timer) => timer.id !== id);
    },
    /** Moves the clock forward, running every timer that comes due, in order. */
    advance(ms: number) {
      const end = t + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const due = timers[0];
        if (!due || due.at > end) break;
        timers.shift();
        t = due.at;
        due.run();
      }
      t = end;
    },
  };
}

const created = (id: number): ChangeEvent => ({ entity: 'customer', kind: 'created', ids: [String(id)] });

describe('createChangeBatcher', () => {
  it('sends a single change after the leading delay', () => {
    const time = manualTime();
    const batches: ChangeEvent[][] = [];
    const batcher = createChangeBatcher({ flush: (events) => void batches.push(events), ...time });
    batcher.push(created(1));
    time.advance(15);
    expect(batches).toEqual([]);
    time.advance(1);
    expect(batches).toEqual([[created(1)]]);
  });

  it('turns a burst of 300 changes in one second into at most one batch per interval, losing none', () => {
    const time = manualTime();
    const batches: ChangeEvent[][] = [];
    const batcher = createChangeBatcher({ flush: (events) => void batches.push(events), ...time });
    for (let i = 0; i < 300; i++) {
      batcher.push(created(i));
      time.advance(1000 / 300);
    }
    time.advance(1000);
    expect(batches.length).toBeLessThanOrEqual(6);
    expect(batches.flat()).toHaveLength(300);
    expect(batches.flat().map((e) => e.ids[0])).toEqual(Array.from({ length: 300 }, (_, i) => String(i)));
  });

  it('waits for the previous batch to be handled before sending the next', async () => {
    const time = manualTime();
    const batches: ChangeEvent[][] = [];
    let finish!: () => void;
    const batcher = createChangeBatcher({
      flush: (events) => {
        batches.push(events);
        return new Promise<void>((resolve) => (finish = resolve));
      },
      ...time,
    });
    batcher.push(created(1));
    time.advance(16);
    batcher.push(created(2));
    time.advance(1000);
    expect(batches).toHaveLength(1);
    finish();
    await Promise.resolve();
    await Promise.resolve();
    time.advance(16);
    expect(batches).toEqual([[created(1)], [created(2)]]);
  });

  it('goes on after a batch whose handling never settles, once maxWaitMs has passed', () => {
    const time = manualTime();
    const batches: ChangeEvent[][] = [];
    const batcher = createChangeBatcher({
      flush: (events) => {
        batches.push(events);
        return new Promise<void>(() => {});
      },
      maxWaitMs: 500,
      ...time,
    });
    batcher.push(created(1));
    time.advance(16);
    batcher.push(created(2));
    time.advance(520);
    expect(batches).toEqual([[created(1)], [created(2)]]);
  });

  it('sends nothing once disposed', () => {
    const time = manualTime();
    const batches: ChangeEvent[][] = [];
    const batcher = createChangeBatcher({ flush: (events) => void batches.push(events), ...time });
    batcher.push(created(1));
    batcher.dispose();
    batcher.push(created(2));
    time.advance(1000);
    expect(batches).toEqual([]);
  });
});
