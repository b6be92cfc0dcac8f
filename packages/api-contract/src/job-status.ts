// A job's lifecycle: its statuses in order, their words, and the moves allowed between them.
import { z } from 'zod';

/**
 * Where a job stands, from the first quote to the money in the bank, in lifecycle order.
 * @example
 * for (const status of jobStatuses) console.log(jobStatusLabels[status]);
 */
export const jobStatuses = ['quote', 'scheduled', 'in_progress', 'completed', 'invoiced', 'paid', 'cancelled'] as const;
/**
 * Checks that a value is one of `jobStatuses`.
 * @example
 * const status = jobStatusSchema.parse(searchParams.get('status'));
 */
export const jobStatusSchema = z.enum(jobStatuses);
/**
 * One of `jobStatuses`.
 * @example
 * const status: JobStatus = 'in_progress';
 */
export type JobStatus = z.infer<typeof jobStatusSchema>;

/**
 * Words for each status, as people say them.
 * @example
 * jobStatusLabels.in_progress; // 'In progress'
 */
export const jobStatusLabels: Record<JobStatus, string> = {
  quote: 'Quote',
  scheduled: 'Scheduled',
  in_progress: 'In progress',
  completed: 'Completed',
  invoiced: 'Invoiced',
  paid: 'Paid',
  cancelled: 'Cancelled',
};

/**
 * The moves a job may make from each status. `paid` is final; `cancelled → quote` restores a job.
 * @example
 * jobTransitions.quote; // ['scheduled', 'cancelled']
 */
export const jobTransitions: Record<JobStatus, readonly JobStatus[]> = {
  quote: ['scheduled', 'cancelled'],
  scheduled: ['in_progress', 'quote', 'cancelled'],
  in_progress: ['completed', 'scheduled', 'cancelled'],
  completed: ['invoiced', 'in_progress'],
  invoiced: ['paid', 'completed'],
  paid: [],
  cancelled: ['quote'],
};

/**
 * Statuses a new job may start in.
 * @example
 * initialJobStatuses.includes(body.status); // a quote or scheduled
 */
export const initialJobStatuses = ['quote', 'scheduled'] as const satisfies readonly JobStatus[];

/**
 * True when a job may move from `from` to `to` (staying put is always allowed).
 * @example
 * canMoveJob('quote', 'scheduled'); // true
 * canMoveJob('paid', 'cancelled'); // false
 */
export function canMoveJob(from: JobStatus, to: JobStatus): boolean {
  return from === to || jobTransitions[from].includes(to);
}
