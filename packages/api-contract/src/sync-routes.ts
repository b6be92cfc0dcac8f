// The sync calls of the route table (issue 40, decision 0163).
import type { RouteDefinition } from './route-definition';
import { syncPullQuerySchema, syncPullSchema, syncPushInputSchema, syncPushSchema } from './sync';

/**
 * Sync between a device's own copy and the server (decision 0163): a device pulls what changed
 * since its position and pushes the writes it made, in order.
 * @example
 * const { method, path } = syncRoutes.push; // 'POST', '/sync/push'
 */
export const syncRoutes = {
  pull: {
    method: 'GET',
    path: '/sync/pull',
    summary:
      'The records that changed after a position (filterJson {"epoch", "since"}) as they are now, the ids of those gone for good, and the position to pull from next; everything (reset) on a first sync, for a position older than the server keeps, or after the data was replaced; in pages (next).',
    filterJson: syncPullQuerySchema,
    invalidFilter: 'error',
    errors: { 400: 'filterJson is not an object of epoch, since and page, or page is not one this server gave.' },
    response: syncPullSchema,
  },
  push: {
    method: 'POST',
    path: '/sync/push',
    summary:
      'Runs a device’s writes in order, each as the same request over HTTP would run (its checks, its If-Match, its request id: a write pushed again is not run twice), and answers each one’s status and body.',
    body: syncPushInputSchema,
    response: syncPushSchema,
    maxBodyBytes: 4 * 1024 * 1024,
    longRunning: true,
  },
} as const satisfies Record<string, RouteDefinition>;
