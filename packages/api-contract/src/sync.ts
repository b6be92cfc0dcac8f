// Sync between devices and a team server (issue 40, decision 0163): pull the changes since a
// position, push the writes a device made, in order, each exactly once.
import { z } from 'zod';
import { customerDetailsSchema, customerSchema } from './customer';
import { businessSettingsSchema, invoiceSchema } from './invoice';
import { jobSchema } from './job';

/**
 * How much one pull or push carries at most.
 * @example
 * const pages = Math.ceil(writes.length / syncLimits.maxPushWrites);
 */
export const syncLimits = {
  /** Records (and deletions) one pull answers at most; `more` says there are others. */
  maxPullRecords: 1_000,
  /**
   * Records one page of a first sync (everything, in id order) carries at most: larger than a
   * pull's, as a new device takes them in bulk.
   */
  maxSnapshotRecords: 5_000,
  /** Writes one push carries at most. */
  maxPushWrites: 200,
  /**
   * How long the server keeps its change log: a device whose position is older gets the whole
   * data again (`reset`), 30 days.
   */
  logKeptMs: 30 * 24 * 60 * 60 * 1000,
} as const;

/**
 * The query of a pull (`filterJson`): where the device is. Leave both out for the first sync.
 * `epoch` names the server's data as the device last saw it: a restored or replaced database has
 * another, and the device then gets everything again. `page` continues a pull whose answer had
 * `next` (a first sync comes in pages).
 * @example
 * const query: SyncPullQuery = { epoch: 'f3a9c2d4e5b60718', since: 1767225600042 };
 */
export const syncPullQuerySchema = z.object({
  epoch: z.string().max(64).optional(),
  since: z.number().int().min(0).optional(),
  page: z.string().max(200).optional(),
});
/**
 * Where a device is, for a pull.
 * @example
 * const first: SyncPullQuery = {};
 */
export type SyncPullQuery = z.infer<typeof syncPullQuerySchema>;

/**
 * The records of a pull, by kind, as the API answers them one by one: customers (archived ones too),
 * their notes and service addresses, jobs, invoices (with their lines and payments), the business's
 * settings.
 * @example
 * const none: SyncRecords = { customers: [], customer_details: [], jobs: [], invoices: [], settings: [] };
 */
export const syncRecordsSchema = z.object({
  customers: z.array(customerSchema),
  customer_details: z.array(customerDetailsSchema),
  jobs: z.array(jobSchema),
  invoices: z.array(invoiceSchema),
  settings: z.array(businessSettingsSchema),
});
/**
 * The records of a pull, by kind.
 * @example
 * const count = (r: SyncRecords) => r.customers.length + r.jobs.length + r.invoices.length;
 */
export type SyncRecords = z.infer<typeof syncRecordsSchema>;

/**
 * What a pull answers: the records that changed after `since` as they are now, the ids of those
 * that are gone for good, and the position to pull from next time. With `reset` the device's copy
 * is out of date as a whole (a first sync, a position older than the server keeps, another epoch):
 * it drops what it holds and takes these records (and the next pages) instead. With `next` the
 * answer is one page: pull again with `{ page: next }` before using `position`.
 * @example
 * const pulled = syncPullSchema.parse(await (await fetch('/api/sync/pull')).json());
 */
export const syncPullSchema = z.object({
  epoch: z.string(),
  position: z.number().int(),
  reset: z.boolean(),
  records: syncRecordsSchema,
  deleted: z.object({ customers: z.array(z.string()), jobs: z.array(z.string()), invoices: z.array(z.string()) }),
  next: z.string().nullable(),
  /** The server's data version (schema): a device on an older Otto updates before it pushes (decision 0168). */
  schema: z.number().int().optional(),
});
/**
 * What a pull answers.
 * @example
 * const done = (p: SyncPull) => p.next === null;
 */
export type SyncPull = z.infer<typeof syncPullSchema>;

/**
 * One write a device made and the server has not confirmed: the API request as the device sent it
 * to its own copy, with its request id (so that pushing it again never runs it twice), for a write
 * of one record the `If-Match` it was made over, and the ids the records it created took there (from
 * the device's own range, 2^52 up: the server's run gives them the same ones).
 * @example
 * const write: SyncWrite = { request_id: 'dev-a:41', method: 'PUT', path: '/customers/7', body: { full_name: 'Ada' }, if_match: '"1767225600042"' };
 */
export const syncWriteSchema = z.object({
  request_id: z.string().regex(/^[\w.:-]{1,100}$/, 'A request id is 1 to 100 letters, digits and _ . : -.'),
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string().regex(/^\/[^\s]*$/, 'The path is below the API base: /customers/7.').max(500),
  body: z.unknown().optional(),
  if_match: z.string().max(200).optional(),
  ids: z
    .partialRecord(z.enum(['customers', 'jobs', 'invoices', 'payments']), z.array(z.string().regex(/^\d{16}$/, 'A record id a device gives is 16 digits.')).max(1_000))
    .optional(),
});
/**
 * One write of a push.
 * @example
 * const create: SyncWrite = { request_id: 'dev-a:1', method: 'POST', path: '/customers', body: { full_name: 'Ada', email: 'ada@example.com', phone: '' } };
 */
export type SyncWrite = z.infer<typeof syncWriteSchema>;

/**
 * The body of a push: the device's writes, oldest first.
 * @example
 * const push: SyncPushInput = { writes: [create] };
 */
export const syncPushInputSchema = z.object({
  writes: z.array(syncWriteSchema).min(1, 'Send at least one write.').max(syncLimits.maxPushWrites, `Send at most ${syncLimits.maxPushWrites} writes in one push.`),
  /**
   * The data version (schema) the device's Otto knows. A push from an Otto older than the
   * server's data is refused whole (409 `UPDATE_REQUIRED`, nothing run): its writes could erase
   * what it does not know. Left out, the push is taken as before (decision 0168).
   */
  schema: z.number().int().min(1).optional(),
});
/**
 * The body of a push.
 * @example
 * const one: SyncPushInput = { writes: [{ request_id: 'dev-a:1', method: 'DELETE', path: '/jobs/9' }] };
 */
export type SyncPushInput = z.infer<typeof syncPushInputSchema>;

/**
 * A push's answer to one write, in the order sent: its status and body as the same request over
 * HTTP would have got them (a refusal's error body included), `replayed` when the server had run it
 * already (an earlier push whose answer was lost).
 * @example
 * const answer: SyncAnswer = { request_id: 'dev-a:1', status: 200, body: { id: '501' }, replayed: false };
 */
export const syncAnswerSchema = z.object({
  request_id: z.string(),
  status: z.number().int(),
  body: z.unknown(),
  replayed: z.boolean(),
});
/**
 * A push's answer to one write.
 * @example
 * const refused = (a: SyncAnswer) => a.status >= 400;
 */
export type SyncAnswer = z.infer<typeof syncAnswerSchema>;

/**
 * What a push answers: one answer per write, in order. Every write runs, each on its own: a refused
 * one does not stop those after it (they may be refused in turn, a job of a customer whose create
 * was refused).
 * @example
 * const pushed = syncPushSchema.parse(await res.json());
 */
export const syncPushSchema = z.object({ answers: z.array(syncAnswerSchema) });
/**
 * What a push answers.
 * @example
 * const refusals = (p: SyncPush) => p.answers.filter((a) => a.status >= 400);
 */
export type SyncPush = z.infer<typeof syncPushSchema>;
