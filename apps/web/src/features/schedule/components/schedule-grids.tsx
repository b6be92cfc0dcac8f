import type { ScheduleJob } from '@otto/api-contract';
import type { KeyboardEvent, PointerEvent } from 'react';
import { dayIndexOf, rowsOf, spanOf } from '../schedule-layout';
import type { ScheduleDay } from '../schedule-time';
import { hourLabel, laneName, longDay, shortDay } from '../schedule-words';
import { JobCard } from './job-card';

/** Where a dragged job would land: a lane, a day, and in the day view a time. */
export interface DropTarget {
  lane: string;
  day: string;
  /** The instant under the pointer (day view). */
  at?: number;
}

/** What both grids need to draw and handle jobs. */
export interface GridProps {
  /** How many jobs each person's day holds beyond those shown, by `person\u0000date`. */
  more: ReadonlyMap<string, number>;
  /** Opens one day (the day view), where a day with more jobs than a week's cell shows them. */
  onMore: (date: string) => void;
  days: readonly ScheduleDay[];
  lanes: readonly string[];
  jobs: readonly ScheduleJob[];
  now: number;
  overlaps: ReadonlySet<string>;
  draggingId: string | undefined;
  target: DropTarget | undefined;
  hintId: string;
  onPointerDown: (event: PointerEvent<HTMLElement>, job: ScheduleJob, mode: 'move' | 'resize') => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>, job: ScheduleJob) => void;
  onOpen: (job: ScheduleJob) => void;
}

/** A job's card as both grids draw it (the day view also places it on the time track). */
function card(props: GridProps, job: ScheduleJob, placement?: { left: number; width: number; row: number }) {
  const { now, overlaps, draggingId, hintId, onPointerDown, onKeyDown, onOpen } = props;
  return (
    <JobCard
      job={job}
      now={now}
      overlaps={overlaps.has(job.id)}
      dragging={draggingId === job.id}
      {...(placement ? { placement } : {})}
      hintId={hintId}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      onOpen={onOpen}
    />
  );
}

function todayOf(days: readonly ScheduleDay[], now: number): string | undefined {
  return days.find((d) => d.start <= now && now < d.end)?.key;
}

/** The week: a row per person, a column per day, each day's jobs in the order they start. */
export function WeekGrid(props: GridProps) {
  const { more, onMore, days, lanes, jobs, now, target } = props;
  const today = todayOf(days, now);
  const cells = new Map<string, ScheduleJob[]>();
  for (const job of [...jobs].sort((a, b) => spanOf(a).start - spanOf(b).start)) {
    const index = dayIndexOf(job, days);
    const day = days[index];
    if (!day) continue;
    const key = `${job.assignee}\u0000${day.key}`;
    cells.set(key, [...(cells.get(key) ?? []), job]);
  }
  return (
    <table className="sched-grid sched-grid--week" aria-label={`Week of ${days[0] ? longDay(days[0]) : ''}`}>
      <thead>
        <tr>
          <th scope="col" className="sched-grid__corner">
            Person
          </th>
          {days.map((day) => (
            <th key={day.key} scope="col" className={day.key === today ? 'sched-grid__day sched-grid__day--today' : 'sched-grid__day'} aria-current={day.key === today ? 'date' : undefined}>
              {shortDay(day)}
              {day.key === today && <span className="sched-grid__today"> · Today</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {lanes.map((lane) => (
          <tr key={lane}>
            <th scope="row" className="sched-grid__lane">
              {laneName(lane)}
            </th>
            {days.map((day) => {
              const cellJobs = cells.get(`${lane}\u0000${day.key}`) ?? [];
              const hidden = more.get(`${lane}\u0000${day.key}`) ?? 0;
              const targeted = target?.lane === lane && target.day === day.key;
              return (
                <td key={day.key} className={targeted ? 'sched-cell sched-cell--target' : 'sched-cell'} data-drop-lane={lane} data-drop-day={day.key}>
                  {cellJobs.length > 0 && (
                    <ul className="sched-cell__jobs">
                      {cellJobs.map((job) => (
                        <li key={job.id}>
                          {card(props, job)}
                        </li>
                      ))}
                    </ul>
                  )}
                  {hidden > 0 && (
                    <button type="button" className="sched-cell__more" onClick={() => onMore(day.key)}>
                      {hidden} more
                      <span className="otto-visually-hidden"> for {laneName(lane)} on {shortDay(day)}: open the day</span>
                    </button>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The hours the day view shows: 7 to 19, widened to the jobs it holds. */
export function dayAxis(day: ScheduleDay, jobs: readonly ScheduleJob[]): { start: number; end: number } {
  let start = day.start + 7 * 3_600_000;
  let end = day.start + 19 * 3_600_000;
  for (const job of jobs) {
    const span = spanOf(job);
    start = Math.min(start, Math.max(day.start, span.start - (span.start - day.start) % 3_600_000));
    end = Math.max(end, Math.min(day.end, span.end));
  }
  end = Math.min(day.end, start + Math.ceil((end - start) / 3_600_000) * 3_600_000);
  return { start, end };
}

/** One day: a row per person with a time track; each job a block as long as it lasts. */
export function DayGrid(props: GridProps) {
  const { more, days, lanes, jobs, now, target } = props;
  const day = days[0];
  if (!day) return null;
  const axis = dayAxis(day, jobs);
  const span = axis.end - axis.start;
  const hours = Array.from({ length: Math.round(span / 3_600_000) }, (_, i) => axis.start + i * 3_600_000);
  const percent = (t: number) => ((Math.min(Math.max(t, axis.start), axis.end) - axis.start) / span) * 100;
  const nowAt = day.start <= now && now < day.end ? percent(now) : undefined;
  return (
    <table
      className="sched-grid sched-grid--day"
      aria-label={longDay(day)}
      data-axis-start={axis.start}
      data-axis-end={axis.end}
      // An hour at least 4.5rem wide: a one-hour job keeps its words; the day scrolls sideways.
      style={{ minWidth: `calc(7rem + ${hours.length} * 4.5rem)` }}
    >
      <thead>
        <tr>
          <th scope="col" className="sched-grid__corner">
            Person
          </th>
          <th scope="col" className="sched-ruler">
            <span className="otto-visually-hidden">Time</span>
            {hours.map((hour, i) => (
              <span key={hour} className={i === 0 ? 'sched-ruler__hour sched-ruler__hour--first' : 'sched-ruler__hour'} style={{ left: `${percent(hour)}%` }} aria-hidden="true">
                {hourLabel(hour)}
              </span>
            ))}
          </th>
        </tr>
      </thead>
      <tbody>
        {lanes.map((lane) => {
          const laneJobs = jobs.filter((j) => j.assignee === lane);
          const rows = rowsOf(laneJobs);
          const rowCount = Math.max(1, ...[...rows.values()].map((r) => r + 1));
          const targeted = target?.lane === lane;
          return (
            <tr key={lane}>
              <th scope="row" className="sched-grid__lane">
                {laneName(lane)}
                {(more.get(`${lane}\u0000${day.key}`) ?? 0) > 0 && (
                  <span className="sched-grid__more">{more.get(`${lane}\u0000${day.key}`)} more not shown</span>
                )}
              </th>
              <td
                className={targeted ? 'sched-track sched-cell--target' : 'sched-track'}
                data-drop-lane={lane}
                data-drop-day={day.key}
                style={{ height: `calc(${rowCount} * var(--sched-row) + 0.5rem)` }}
              >
                {hours.map((hour) => (
                  <span key={hour} className="sched-track__line" style={{ left: `${percent(hour)}%` }} aria-hidden="true" />
                ))}
                {nowAt !== undefined && <span className="sched-track__now" style={{ left: `${nowAt}%` }} aria-hidden="true" />}
                {laneJobs.length > 0 && (
                  <ul className="sched-track__jobs">
                    {laneJobs.map((job) => {
                      const s = spanOf(job);
                      const left = percent(s.start);
                      return (
                        <li key={job.id}>
                          {card(props, job, { left, width: Math.max(percent(s.end) - left, 2), row: rows.get(job.id) ?? 0 })}
                        </li>
                      );
                    })}
                  </ul>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
