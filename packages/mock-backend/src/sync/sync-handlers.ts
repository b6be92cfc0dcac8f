import { syncRoutes } from '@otto/api-contract';
import { defineHandler } from '../runtime/handler';
import { pullChanges } from './sync-pull';

/** GET /sync/pull: what changed after the device's position (decision 0163). The push is `withSyncPush`. */
const pull = defineHandler(syncRoutes.pull, async ({ sql, filter }) => ({ data: await pullChanges(sql, filter) }));

export const syncHandlers = [pull];
