// The change feed between the DB worker and every tab: one BroadcastChannel, so that each tab (the
// writer's included) hears a change without going through the tab that owns the database. This
// module is loaded by pages, so it stays free of zod: events are checked by hand.
import type { ChangeEvent } from '@otto/api-contract';
import type { MockChangeEvent } from '../types';

/**
 * Name of the BroadcastChannel the DB worker posts change events on.
 * @example
 * new BroadcastChannel(defaultChangeChannelName).onmessage = (e) => console.log(e.data);
 */
export const defaultChangeChannelName = 'otto-changes';

const kinds: readonly string[] = ['created', 'updated', 'deleted', 'reset'] satisfies readonly ChangeEvent['kind'][];

/**
 * Whether a message is a change event (anything else on the channel is ignored): one of Otto's, or
 * one of an extension's routes, whose entity is the name it gave.
 */
export function isChangeEvent(value: unknown): value is MockChangeEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { entity, kind, ids } = value as Record<string, unknown>;
  return (
    typeof entity === 'string' &&
    entity !== '' &&
    typeof kind === 'string' &&
    kinds.includes(kind) &&
    Array.isArray(ids) &&
    ids.every((id) => typeof id === 'string')
  );
}

/**
 * The DB worker's side: posts each event on the channel. Without BroadcastChannel (old runtimes)
 * it does nothing: tabs then only see their own writes.
 */
export function createChangeBroadcast(name: string): { publish(event: MockChangeEvent): void; close(): void } {
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name);
  // In Node (tests, benches) a channel that only posts must not keep the process alive.
  (channel as { unref?: () => void } | undefined)?.unref?.();
  return {
    publish(event) {
      channel?.postMessage(event);
    },
    close() {
      channel?.close();
    },
  };
}

/**
 * A tab's side: calls `listener` with every change event posted on the channel, until the returned
 * function is called.
 * @example
 * const stop = listenForChanges('otto-changes', (event) => console.log(event.entity, event.kind));
 */
export function listenForChanges<E extends MockChangeEvent = ChangeEvent>(name: string, listener: (event: E) => void): () => void {
  const channel = new BroadcastChannel(name);
  channel.onmessage = (message: MessageEvent) => {
    if (isChangeEvent(message.data)) listener(message.data as E);
  };
  return () => channel.close();
}
