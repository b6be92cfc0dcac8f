import type { ChangeEvent } from '@otto/api-contract';

export interface ChangeBatcherOptions {
  /** Handles one batch; the next batch waits until the returned promise settles (or `maxWaitMs`). */
  flush: (events: ChangeEvent[]) => Promise<unknown> | void;
  /**
   * Wait before the first flush of a quiet period, so that changes arriving together (one save
   * may publish a few) go out as one batch.
   * @default 16
   */
  leadingDelayMs?: number;
  /**
   * Least time between the starts of two flushes while changes keep coming.
   * @default 250
   */
  intervalMs?: number;
  /**
   * Longest wait for a flush's promise before the next batch may go.
   * @default 2000
   */
  maxWaitMs?: number;
  /** The clock and timers (tests pass fakes). */
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * Coalesces a stream of change events into a few batches: the first change after a quiet period
 * goes out after `leadingDelayMs`; while changes keep coming, at most one batch per `intervalMs`,
 * and never while the previous batch is still being handled (its refetches running). A burst of
 * hundreds of writes per second so becomes a handful of refetches per query.
 * @example
 * const batcher = createChangeBatcher({ flush: (events) => invalidate(events) });
 * const stop = backend.onChange(batcher.push);
 */
export function createChangeBatcher(options: ChangeBatcherOptions): { push(event: ChangeEvent): void; dispose(): void } {
  const { flush, leadingDelayMs = 16, intervalMs = 250, maxWaitMs = 2_000 } = options;
  const now = options.now ?? (() => performance.now());
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let pending: ChangeEvent[] = [];
  let timer: unknown;
  let busy = false;
  let lastFlushAt = -Infinity;
  let disposed = false;

  function schedule(): void {
    if (disposed || busy || timer !== undefined || pending.length === 0) return;
    const delay = Math.max(leadingDelayMs, lastFlushAt + intervalMs - now());
    timer = setTimer(run, delay);
  }

  function run(): void {
    timer = undefined;
    const batch = pending;
    pending = [];
    lastFlushAt = now();
    busy = true;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      busy = false;
      schedule();
    };
    let result: Promise<unknown> | void;
    try {
      result = flush(batch);
    } catch {
      result = undefined;
    }
    if (!result) return done();
    const giveUp = setTimer(done, maxWaitMs);
    void result.then(
      () => {
        clearTimer(giveUp);
        done();
      },
      () => {
        clearTimer(giveUp);
        done();
      },
    );
  }

  return {
    push(event) {
      pending.push(event);
      schedule();
    },
    dispose() {
      disposed = true;
      if (timer !== undefined) clearTimer(timer);
      timer = undefined;
      pending = [];
    },
  };
}
