import { jobStatusLabels, type ScheduleJob } from '@otto/api-contract';
import { Button } from '@otto/ui';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { dayIndexOf, pastAndOpen, spanOf } from '../schedule-layout';
import type { ScheduleDay } from '../schedule-time';
import { laneName, longDay, timeRange } from '../schedule-words';

export interface AgendaProps {
  days: readonly ScheduleDay[];
  jobs: readonly ScheduleJob[];
  now: number;
  overlaps: ReadonlySet<string>;
  /** How many jobs each person's day holds beyond those shown, by `person\u0000date`. */
  more: ReadonlyMap<string, number>;
  onMove: (job: ScheduleJob) => void;
}

/** A phone's schedule: each day and its jobs in the order they start, each with a Move button. */
export function Agenda({ days, jobs, now, overlaps, more, onMove }: AgendaProps) {
  const byDay = days.map(() => [] as ScheduleJob[]);
  for (const job of [...jobs].sort((a, b) => spanOf(a).start - spanOf(b).start)) byDay[dayIndexOf(job, days)]?.push(job);
  return (
    <ol className="sched-agenda">
      {days.map((day, i) => {
        const today = day.start <= now && now < day.end;
        const dayJobs = byDay[i] ?? [];
        const hidden = [...more].reduce((n, [key, count]) => (key.endsWith(`\u0000${day.key}`) ? n + count : n), 0);
        return (
          <li key={day.key} className="sched-agenda__day" aria-current={today ? 'date' : undefined}>
            <h2 className="sched-agenda__date">
              {longDay(day)}
              {today && <span className="sched-grid__today"> · Today</span>}
            </h2>
            {dayJobs.length === 0 ? (
              <p className="sched-agenda__none">Nothing scheduled</p>
            ) : (
              <ul className="sched-agenda__jobs">
                {dayJobs.map((job) => {
                  const span = spanOf(job);
                  const late = pastAndOpen(job, now);
                  return (
                    <li key={job.id} className={`sched-agenda__job sched-job--${job.status}`} data-job-id={job.id}>
                      <span className="sched-job__time">{timeRange(span.start, job.scheduled_end_dt === null ? null : span.end)}</span>
                      <Link to={paths.jobs.edit.href(job.id)} className="sched-agenda__title">
                        {job.title}
                      </Link>
                      <span className="sched-job__customer">
                        {job.customer_name} · {laneName(job.assignee)}
                      </span>
                      <span className="sched-job__tags">
                        {job.status !== 'scheduled' && <span className="sched-tag">{jobStatusLabels[job.status]}</span>}
                        {late && <span className="sched-tag sched-tag--late">Past, still open</span>}
                        {overlaps.has(job.id) && <span className="sched-tag sched-tag--overlaps">Overlaps</span>}
                      </span>
                      <Button size="sm" variant="secondary" onClick={() => onMove(job)} aria-label={`Move ${job.title}`}>
                        Move…
                      </Button>
                    </li>
                  );
                })}
              </ul>
            )}
            {hidden > 0 && (
              <Link className="sched-agenda__more" to={paths.schedule.href({ view: 'day', date: day.key })}>
                {hidden} more on this day
              </Link>
            )}
          </li>
        );
      })}
    </ol>
  );
}
