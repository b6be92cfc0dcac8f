import type { Job } from '@otto/api-contract';
import { jobStatusLabels } from '@otto/api-contract';
import type { UseQueryResult } from '@tanstack/react-query';
import type { PointerEvent } from 'react';
import { formatCount } from '../../../lib/format';
import { laneName } from '../schedule-words';

export interface UnscheduledPanelProps {
  query: UseQueryResult<{ jobs: Job[]; total: number }>;
  draggingId: string | undefined;
  /** Starts a drag onto the calendar (not on a phone, where the Schedule button does it). */
  onPointerDown: ((event: PointerEvent<HTMLElement>, job: Job, mode: 'move') => void) | undefined;
  onSchedule: (job: Job) => void;
}

/** The jobs with no time yet, newest first: drag one onto the calendar, or press it to choose a time. */
export function UnscheduledPanel({ query, draggingId, onPointerDown, onSchedule }: UnscheduledPanelProps) {
  const jobs = query.data?.jobs ?? [];
  const total = query.data?.total ?? 0;
  return (
    <section className="sched-unscheduled" aria-labelledby="sched-unscheduled-title">
      <h2 id="sched-unscheduled-title" className="sched-unscheduled__title">
        Unscheduled
      </h2>
      {query.isError && !query.data ? (
        <p className="sched-unscheduled__note">The unscheduled jobs could not be loaded: {query.error.message}</p>
      ) : !query.data ? (
        <p className="sched-unscheduled__note">Loading…</p>
      ) : total === 0 ? (
        <p className="sched-unscheduled__note">Every open job has a time.</p>
      ) : (
        <>
          <p className="sched-unscheduled__note">
            {formatCount(total, 'job')} without a time{total > jobs.length ? `; the ${jobs.length} newest are here` : ''}.
          </p>
          <ul className="sched-unscheduled__jobs">
            {jobs.map((job) => (
              <li key={job.id}>
                <button
                  type="button"
                  className={draggingId === job.id ? 'sched-unscheduled__job sched-job--dragging' : 'sched-unscheduled__job'}
                  data-unscheduled-id={job.id}
                  onPointerDown={onPointerDown && ((event) => onPointerDown(event, job, 'move'))}
                  onClick={() => onSchedule(job)}
                >
                  <span className="sched-job__title">{job.title}</span>
                  <span className="sched-job__customer">
                    {job.customer_name}
                    {job.assignee !== '' && ` · ${laneName(job.assignee)}`}
                  </span>
                  <span className="sched-unscheduled__action">
                    {jobStatusLabels[job.status]} · Schedule…
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
