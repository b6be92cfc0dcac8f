import type { ChangeEvent, RouteDefinition } from '@otto/api-contract';
import type { HandlerResult } from './handler';

/**
 * The change-feed events of a committed write: the handler's own `changes` when it names them, else
 * the route's `change` metadata with the id of the record it answered. A write that answered no
 * record (the spec's `null`) changed nothing.
 */
export function changesOf(route: RouteDefinition, result: HandlerResult): ChangeEvent[] {
  if (result.changes) return result.changes;
  if (!route.change) return [];
  const id = (result.data as { id?: unknown } | null)?.id;
  if (typeof id !== 'string') return [];
  return [{ entity: route.change.entity, kind: route.change.kind, ids: [id] }];
}
