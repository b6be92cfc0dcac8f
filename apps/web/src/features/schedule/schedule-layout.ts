// Where each job goes on the schedule: its lane (person), its day, its row inside a lane, and
// whether it overlaps another job of the same person.
import type { ScheduleJob } from '@otto/api-contract';
import type { ScheduleDay } from './schedule-time';

/** A job with no end is shown as lasting this long, in milliseconds. */
export const defaultLengthMs = 60 * 60_000;

/** The lane of jobs assigned to nobody. */
export const unassignedLane = '';

/** A job's span on the calendar: its end, or its start plus `defaultLengthMs`. */
export function spanOf(job: Pick<ScheduleJob, 'scheduled_start_dt' | 'scheduled_end_dt'>): { start: number; end: number } {
  const start = job.scheduled_start_dt ?? 0;
  const end = job.scheduled_end_dt ?? start + defaultLengthMs;
  return { start, end: Math.max(end, start + 60_000) };
}

/** Still to be done but its time has passed: scheduled or in progress, and its end is before now. */
export function pastAndOpen(job: ScheduleJob, now: number): boolean {
  return (job.status === 'scheduled' || job.status === 'in_progress') && spanOf(job).end < now;
}

/**
 * The lanes, top to bottom: "Unassigned" first, then everyone the backend names, then anyone else
 * the shown jobs are assigned to (a name added since), each once.
 */
export function lanesOf(assignees: readonly string[], jobs: readonly ScheduleJob[]): string[] {
  const lanes = [unassignedLane, ...assignees];
  for (const job of jobs) if (!lanes.includes(job.assignee)) lanes.push(job.assignee);
  return [...new Set(lanes)];
}

/** The ids of the jobs whose spans meet another job's of the same person (cancelled jobs are not on the schedule). */
export function overlappingIds(jobs: readonly ScheduleJob[]): Set<string> {
  const byLane = new Map<string, ScheduleJob[]>();
  for (const job of jobs) byLane.set(job.assignee, [...(byLane.get(job.assignee) ?? []), job]);
  const ids = new Set<string>();
  for (const laneJobs of byLane.values()) {
    const sorted = [...laneJobs].sort((a, b) => spanOf(a).start - spanOf(b).start);
    let reach = -Infinity;
    let reacher: ScheduleJob | undefined;
    for (const job of sorted) {
      const { start, end } = spanOf(job);
      if (reacher && start < reach) {
        ids.add(job.id);
        ids.add(reacher.id);
      }
      if (end > reach) {
        reach = end;
        reacher = job;
      }
    }
  }
  return ids;
}

/** The day a job is shown on: the day its start falls in, or the first day when it began before them. */
export function dayIndexOf(job: ScheduleJob, days: readonly ScheduleDay[]): number {
  const start = spanOf(job).start;
  const index = days.findIndex((d) => d.start <= start && start < d.end);
  if (index >= 0) return index;
  return start < (days[0]?.start ?? 0) ? 0 : -1;
}

/**
 * Rows for a lane of the day view: each job on the first row where it meets no other, so that
 * overlapping jobs sit one above the other instead of on top of each other.
 */
export function rowsOf(jobs: readonly ScheduleJob[]): Map<string, number> {
  const rows = new Map<string, number>();
  const rowEnds: number[] = [];
  for (const job of [...jobs].sort((a, b) => spanOf(a).start - spanOf(b).start || Number(a.id) - Number(b.id))) {
    const { start, end } = spanOf(job);
    let row = rowEnds.findIndex((rowEnd) => rowEnd <= start);
    if (row < 0) row = rowEnds.push(end) - 1;
    else rowEnds[row] = end;
    rows.set(job.id, row);
  }
  return rows;
}
