import { use, useSyncExternalStore } from 'react';
import { rendersBeforeStart, startOnce, type Started } from './start-once';

/**
 * The backend's start as the /biz layout reads it: the outcome once settled; undefined while the
 * app renders before it (its first screen from a kept answer: `renderBeforeStart`). Otherwise the
 * same as `use(startOnce())`: suspends until the start ends.
 * @example
 * const started = useStart(); // undefined: still starting, the screens show what they have
 */
export function useStart(): Started | undefined {
  const waiting = useSyncExternalStore(
    (onChange) => {
      let on = true;
      // After startOnce's own `then`, which sets the marks `use` reads.
      void startOnce().then(() => on && onChange());
      return () => {
        on = false;
      };
    },
    () => rendersBeforeStart() && (startOnce() as { status?: string }).status !== 'fulfilled',
  );
  return waiting ? undefined : use(startOnce());
}
