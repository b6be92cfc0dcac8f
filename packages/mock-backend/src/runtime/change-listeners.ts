import type { ChangeListener, MockChangeEvent } from '../types';

/**
 * The listeners of an API's change feed: `tell` calls each (a listener that throws is reported to
 * `onError` and does not stop the others), `subscribe` adds one and returns its removal.
 * @example
 * const feed = createChangeListeners(options.onChange, (error) => logger.error('A change-feed listener failed', error));
 * const stop = feed.subscribe((event) => console.log(event));
 */
export function createChangeListeners(
  first: ChangeListener | undefined,
  onError: (error: unknown) => void,
): { tell(event: MockChangeEvent): void; subscribe<E extends MockChangeEvent>(listener: (event: E) => void): () => void } {
  const listeners = new Set<(event: MockChangeEvent) => void>(first ? [first as (event: MockChangeEvent) => void] : []);
  return {
    tell(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          onError(error);
        }
      }
    },
    subscribe(listener) {
      const added = listener as (event: MockChangeEvent) => void;
      listeners.add(added);
      return () => {
        listeners.delete(added);
      };
    },
  };
}
