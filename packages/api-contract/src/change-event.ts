import { z } from 'zod';

/**
 * What a change event is about: one kind of record, or the whole database.
 * @example
 * const entity: ChangeEntity = 'customer';
 */
export const changeEntities = ['customer', 'job', 'invoice', 'settings', 'database'] as const;
/**
 * One of `changeEntities`.
 * @example
 * const entity: ChangeEntity = 'job';
 */
export type ChangeEntity = (typeof changeEntities)[number];

/**
 * What happened: records created, updated (a job's status move included) or deleted, or the whole
 * database replaced (`reset`: a restored backup, a deleted and re-seeded database).
 * @example
 * const kind: ChangeKind = 'updated';
 */
export const changeKinds = ['created', 'updated', 'deleted', 'reset'] as const;
/**
 * One of `changeKinds`.
 * @example
 * const kind: ChangeKind = 'reset';
 */
export type ChangeKind = (typeof changeKinds)[number];

/**
 * One event of the change feed: published by the database owner after a write COMMITTED (never for
 * a write that failed or was rolled back). `ids` are the ids of the records the write touched
 * (strings, as on the wire); a `database`/`reset` event has none, and means "everything may have
 * changed: drop what you cached".
 * @example
 * const event = changeEventSchema.parse({ entity: 'customer', kind: 'updated', ids: ['42'] });
 */
export const changeEventSchema = z.object({
  entity: z.enum(changeEntities),
  kind: z.enum(changeKinds),
  ids: z.array(z.string()),
});
/**
 * One event of the change feed: `{ entity, kind, ids }`.
 * @example
 * const renamed: ChangeEvent = { entity: 'customer', kind: 'updated', ids: ['42'] };
 * const restored: ChangeEvent = { entity: 'database', kind: 'reset', ids: [] };
 */
export type ChangeEvent = z.infer<typeof changeEventSchema>;

/**
 * Path (below the API base) of the change feed a server offers as Server-Sent Events: each event is
 * a `change` event whose data is one `ChangeEvent` as JSON. In the browser the same events arrive
 * on a BroadcastChannel instead.
 * @example
 * const feed = new EventSource(`http://localhost:8787${apiBasePath}${changeFeedPath}`);
 * feed.addEventListener(changeFeedEventName, (e) => console.log(changeEventSchema.parse(JSON.parse(e.data))));
 */
export const changeFeedPath = '/changes';

/**
 * The SSE event name (`event:` field) of the change feed's events.
 * @example
 * source.addEventListener(changeFeedEventName, onChange);
 */
export const changeFeedEventName = 'change';
