import type { Job, JobStatus } from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import { findJob } from './job-repository';

/** Forgets the job's last one-click move (an edit ends the chance to undo it). */
export async function forgetJobMove(db: SqlClient, id: number): Promise<void> {
  await db.run('DELETE FROM job_moves WHERE job_id = ?', [id]);
}

/** The last one-click move of a job (migration 6). */
export interface JobMoveRow {
  job_id: number;
  from_status: JobStatus;
  to_status: JobStatus;
  moved_dt: number;
  version: number;
  previous_status_dt: number | null;
  previous_start_dt: number | null;
  previous_end_dt: number | null;
  /**
   * The invoice the move issued (into invoiced) or voided (from invoiced back to completed), for
   * its undo (migration 18); null when it touched none.
   */
  invoice_id: number | null;
  /** The payment a move into paid recorded (migration 18), or null. */
  payment_id: number | null;
}

/**
 * Moves a job to `status` (stamping that status's date), with a new schedule when given, and
 * remembers what it was so that exactly this move can be reverted.
 */
export async function moveJob(
  db: SqlClient,
  job: Job,
  status: JobStatus,
  schedule: { scheduled_start_dt: number | null; scheduled_end_dt: number | null },
  now: number,
): Promise<Job> {
  const id = Number(job.id);
  await db.run(
    `UPDATE jobs SET status = ?, scheduled_start_dt = ?, scheduled_end_dt = ?, modified_dt = ?, ${status}_dt = ? WHERE id = ?`,
    [status, schedule.scheduled_start_dt, schedule.scheduled_end_dt, now, now, id],
  );
  await db.run(
    `INSERT INTO job_moves (job_id, from_status, to_status, moved_dt, version, previous_status_dt, previous_start_dt, previous_end_dt, invoice_id, payment_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (job_id) DO UPDATE SET from_status = excluded.from_status, to_status = excluded.to_status, moved_dt = excluded.moved_dt,
       version = excluded.version, previous_status_dt = excluded.previous_status_dt, previous_start_dt = excluded.previous_start_dt,
       previous_end_dt = excluded.previous_end_dt, invoice_id = excluded.invoice_id, payment_id = excluded.payment_id`,
    [id, job.status, status, now, now, job.status_dates[status], job.scheduled_start_dt, job.scheduled_end_dt, null, null],
  );
  return (await findJob(db, id)) as Job;
}

/** Remembers what the job's last move did to invoices, for its undo (the move's row may be gone: a zero total paid the job at once). */
export async function rememberMoveEffects(db: SqlClient, jobId: number, effects: { invoice_id: number | null; payment_id: number | null }): Promise<void> {
  if (effects.invoice_id === null && effects.payment_id === null) return;
  await db.run('UPDATE job_moves SET invoice_id = ?, payment_id = ? WHERE job_id = ?', [effects.invoice_id, effects.payment_id, jobId]);
}

export function findJobMove(db: SqlClient, jobId: number): Promise<JobMoveRow | undefined> {
  return db.get<JobMoveRow>('SELECT * FROM job_moves WHERE job_id = ?', [jobId]);
}

/** Puts a job back to where the move found it: status, that status's date, schedule. */
export async function revertJobMove(db: SqlClient, move: JobMoveRow, now: number): Promise<Job> {
  await db.run(
    `UPDATE jobs SET status = ?, scheduled_start_dt = ?, scheduled_end_dt = ?, modified_dt = ?, ${move.to_status}_dt = ? WHERE id = ?`,
    [move.from_status, move.previous_start_dt, move.previous_end_dt, now, move.previous_status_dt, move.job_id],
  );
  await db.run('DELETE FROM job_moves WHERE job_id = ?', [move.job_id]);
  return (await findJob(db, move.job_id)) as Job;
}
