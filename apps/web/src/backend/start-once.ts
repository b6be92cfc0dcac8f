import { databaseProblemOf } from '@otto/mock-backend/browser';
import { ensureBackend, type BackendHandle } from './start-backend';

/**
 * How the backend's start ended: the app shows the screen, or the reason in words. `problem` is
 * the store's code when the database itself could not be opened (the recovery screen then helps).
 */
export type Started = { ok: true; backend: BackendHandle } | { ok: false; message: string; problem?: string };

type TrackedPromise<T> = Promise<T> & { status?: 'fulfilled'; value?: T };

let starting: TrackedPromise<Started> | undefined;

/**
 * Starts the backend once per page and never rejects (a failure is `{ ok: false }`, kept for the
 * page's life: a reload tries again). Once settled, the promise carries React's `status`/`value`
 * marks, so `use(startOnce())` reads it without suspending: the /biz layout renders at once when
 * start-up finished before React's first render.
 * @example
 * void startOnce(); // from main.tsx, in parallel with loading the screens
 * const started = useStart(); // in the /biz layout (use-start.ts)
 */
export function startOnce(): Promise<Started> {
  if (!starting) {
    const promise: TrackedPromise<Started> = ensureBackend().then(
      (backend): Started => ({ ok: true, backend }),
      (error: unknown): Started => {
        const problem = databaseProblemOf(error);
        return { ok: false, message: error instanceof Error ? error.message : String(error), ...(problem ? { problem } : {}) };
      },
    );
    void promise.then((value) => {
      promise.status = 'fulfilled';
      promise.value = value;
    });
    starting = promise;
  }
  return starting;
}

/** Whether the app renders before the backend has started (its first screen from a kept answer). */
let early = false;

/**
 * Says the app renders before the backend has started: its first screen has a kept answer to show
 * (start-app.tsx). The /biz layout then renders at once instead of waiting (`useStart`).
 * @example
 * renderBeforeStart();
 */
export function renderBeforeStart(): void {
  early = true;
}

/** Whether the app renders before the backend has started (set by `renderBeforeStart`). */
export function rendersBeforeStart(): boolean {
  return early;
}
