import { jobStatusLabels, type ScheduleJob } from '@otto/api-contract';
import type { KeyboardEvent, PointerEvent } from 'react';
import { pastAndOpen, spanOf } from '../schedule-layout';
import { timeRange } from '../schedule-words';

export interface JobCardProps {
  job: ScheduleJob;
  now: number;
  overlaps: boolean;
  /** Being dragged: shown faded where it was. */
  dragging: boolean;
  /** Day view: the card's place and size on the lane's time track, and a handle to change its end. */
  placement?: { left: number; width: number; row: number };
  hintId: string;
  onPointerDown: (event: PointerEvent<HTMLElement>, job: ScheduleJob, mode: 'move' | 'resize') => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>, job: ScheduleJob) => void;
  onOpen: (job: ScheduleJob) => void;
}

/**
 * A job on the schedule: a button (Enter opens it, arrow keys move it, Shift with arrows changes
 * its length) that a pointer drags; in the day view its end is a handle that changes its length.
 */
export function JobCard({ job, now, overlaps, dragging, placement, hintId, onPointerDown, onKeyDown, onOpen }: JobCardProps) {
  const late = pastAndOpen(job, now);
  const { start, end } = spanOf(job);
  const classes = [
    'sched-job',
    `sched-job--${job.status}`,
    late && 'sched-job--late',
    overlaps && 'sched-job--overlaps',
    dragging && 'sched-job--dragging',
    placement && 'sched-job--placed',
  ].filter(Boolean);
  return (
    <button
      type="button"
      className={classes.join(' ')}
      data-job-id={job.id}
      aria-describedby={hintId}
      style={placement ? { left: `${placement.left}%`, width: `${placement.width}%`, top: `calc(${placement.row} * var(--sched-row))` } : undefined}
      onPointerDown={(event) => onPointerDown(event, job, 'move')}
      onKeyDown={(event) => onKeyDown(event, job)}
      onClick={() => onOpen(job)}
    >
      <span className="sched-job__title">{job.title}</span>
      <span className="sched-job__time">{timeRange(start, job.scheduled_end_dt === null ? null : end)}</span>
      <span className="sched-job__customer">{job.customer_name}</span>
      {(job.status !== 'scheduled' || late || overlaps) && (
        <span className="sched-job__tags">
          {overlaps && <span className="sched-tag sched-tag--overlaps">Overlaps</span>}
          {job.status !== 'scheduled' && <span className="sched-tag">{jobStatusLabels[job.status]}</span>}
          {late && <span className="sched-tag sched-tag--late">Past, still open</span>}
        </span>
      )}
      {placement && (
        <span
          className="sched-job__resize"
          aria-hidden="true"
          title="Drag to change its length"
          onPointerDown={(event) => {
            event.stopPropagation();
            onPointerDown(event, job, 'resize');
          }}
        />
      )}
    </button>
  );
}
