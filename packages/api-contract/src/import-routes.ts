// The calls on the last import of the route table: what it is, and its undo.
import { importUndoResultSchema, lastImportSchema } from './import';
import type { RouteDefinition } from './route-definition';

/**
 * The undo of the last import: what it is, and undoing it.
 * @example
 * const { method, path } = importRoutes.undo; // 'POST', '/imports/last/undo'
 */
export const importRoutes = {
  last: {
    method: 'GET',
    path: '/imports/last',
    summary: 'The last import, while it can still be undone; null when there is none (or it was undone).',
    response: lastImportSchema,
  },
  undo: {
    method: 'POST',
    path: '/imports/last/undo',
    summary:
      'Undo the last import: removes exactly the records it added and puts back the values of those it updated, in one transaction.',
    errors: {
      404: 'There is no import to undo.',
      409: 'A record the import touched changed since (edited, or given a job): nothing was undone.',
    },
    response: importUndoResultSchema,
    longRunning: true,
  },
} as const satisfies Record<string, RouteDefinition>;
