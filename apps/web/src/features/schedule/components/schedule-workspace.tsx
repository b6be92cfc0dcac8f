import type { ScheduleJob } from '@otto/api-contract';
import { Notice } from '@otto/ui';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useNavigate } from 'react-router';
import { LoadErrorNotice } from '../../../lib/load-error-notice';
import { paths } from '../../../lib/paths';
import { perCell, useSchedule, useUnscheduled, usePlaceJob, withPending } from '../api/schedule-api';
import { lanesOf, overlappingIds, spanOf } from '../schedule-layout';
import { addDays, dayOf, instantAt, minuteOfDay, snap, snapMinutes, type ScheduleDay } from '../schedule-time';
import { laneName, timeRange, shortDay } from '../schedule-words';
import { Agenda } from './agenda';
import { PlaceJobDialog } from './place-job-dialog';
import { DayGrid, WeekGrid, type DropTarget } from './schedule-grids';
import { UnscheduledPanel } from './unscheduled-panel';

/** A job put on the calendar from the unscheduled list lasts this long unless it says otherwise. */
const newJobMinutes = 120;
/** ...and starts at this time of day when dropped on a day of the week view. */
const newJobStart = 9 * 60;

interface Drag {
  job: ScheduleJob;
  mode: 'move' | 'resize';
  pointerId: number;
  x0: number;
  y0: number;
  /** Minutes between the job's start and where it was grabbed (day view). */
  grabMinutes: number;
  active: boolean;
}

export interface ScheduleWorkspaceProps {
  view: 'day' | 'week';
  days: readonly ScheduleDay[];
  timeZone: string;
  /** A phone's narrow screen: an agenda list instead of the grid. */
  narrow: boolean;
}

/**
 * The schedule with its unscheduled jobs: drag a job to another day, time or person, drag its end
 * to change its length (day view), drag an unscheduled job onto the calendar; or do the same with
 * the keyboard (arrow keys, Shift with arrows, the Schedule dialog). Every change is saved at once
 * over the version shown, and said in words.
 */
export function ScheduleWorkspace({ view, days, timeZone, narrow }: ScheduleWorkspaceProps) {
  const first = days[0];
  const schedule = useSchedule({ tz: timeZone, start: first?.key ?? '', days: days.length, perCell: perCell[view] });
  const unscheduled = useUnscheduled();
  const { place: placeJob, pending } = usePlaceJob({
    onSaved: (saved, placement) => {
      const day = { key: '', start: placement.start, end: placement.end };
      setSaid(`“${saved.title}” ${placement.job.scheduled_start_dt === null ? 'scheduled' : 'moved'}: ${shortDay(day)}, ${timeRange(placement.start, placement.end)}, ${laneName(saved.assignee)}.`);
    },
    onFailed: (error) => setFailure(error.message),
  });
  const navigate = useNavigate();
  const hintId = useId();
  const [now, setNow] = useState(() => Date.now());
  const [said, setSaid] = useState('');
  const [failure, setFailure] = useState<string>();
  const [dialogJob, setDialogJob] = useState<ScheduleJob>();
  const [drag, setDrag] = useState<{ job: ScheduleJob; target: DropTarget | undefined; x: number; y: number; label: string }>();
  const dragRef = useRef<Drag | undefined>(undefined);
  const suppressClick = useRef(false);
  const focusAfter = useRef<string | undefined>(undefined);

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const jobs = useMemo(() => (schedule.data ? withPending(schedule.data, pending) : []), [schedule.data, pending]);
  const lanes = useMemo(() => lanesOf(schedule.data?.assignees ?? [], [...jobs, ...(unscheduled.data?.jobs ?? [])]), [schedule.data, jobs, unscheduled.data]);
  const overlaps = useMemo(() => overlappingIds(jobs), [jobs]);
  const more = useMemo(() => new Map((schedule.data?.more ?? []).map((m) => [`${m.assignee}\u0000${m.date}`, m.count])), [schedule.data]);

  // After a keyboard move the card is drawn again in its new place (or in the days the view moved
  // to): focus follows it there, only while focus has nowhere else to be (it fell to the page when
  // the card it was on was replaced). Focus going anywhere else ends this.
  useLayoutEffect(() => {
    const id = focusAfter.current;
    if (!id) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    document.querySelector<HTMLElement>(`.sched-grid [data-job-id="${CSS.escape(id)}"]`)?.focus({ preventScroll: false });
  });
  useEffect(() => {
    const leave = (event: FocusEvent) => {
      const id = focusAfter.current;
      if (id && !(event.target instanceof HTMLElement && event.target.dataset.jobId === id)) focusAfter.current = undefined;
    };
    document.addEventListener('focusin', leave);
    return () => document.removeEventListener('focusin', leave);
  }, []);

  const save = useCallback(
    (job: ScheduleJob, start: number, end: number, assignee: string) => {
      setFailure(undefined);
      placeJob({ job, start, end, assignee });
    },
    [placeJob],
  );

  /** Where a job goes when dropped on `target`. */
  const placementFor = useCallback(
    (d: Drag, target: DropTarget): { start: number; end: number; assignee: string } => {
      const placed = d.job.scheduled_start_dt !== null;
      const span = placed ? spanOf(d.job) : undefined;
      const length = span ? span.end - span.start : newJobMinutes * 60_000;
      const day = days.find((x) => x.key === target.day);
      // The day view: instants (a day may be 23 or 25 hours long), snapped to 15 minutes from the
      // day's start.
      const snapAt = (at: number) => (day ? day.start + snap((at - day.start) / 60_000) * 60_000 : at);
      if (d.mode === 'resize' && span && target.at !== undefined) {
        return { start: span.start, end: Math.max(snapAt(target.at), span.start + snapMinutes * 60_000), assignee: d.job.assignee };
      }
      if (target.at !== undefined && day) {
        const start = Math.min(Math.max(snapAt(target.at - d.grabMinutes * 60_000), day.start), day.end - snapMinutes * 60_000);
        return { start, end: start + length, assignee: target.lane };
      }
      // The week: the day changes, the time of day stays (a new job at 09:00).
      const start = instantAt(target.day, span ? minuteOfDay(span.start, timeZone) : newJobStart, timeZone);
      return { start, end: start + length, assignee: target.lane };
    },
    [days, timeZone],
  );

  const targetAt = useCallback((x: number, y: number): DropTarget | undefined => {
    const cell = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-drop-lane]');
    if (!cell) return undefined;
    const lane = cell.dataset.dropLane ?? '';
    const day = cell.dataset.dropDay ?? '';
    const table = cell.closest<HTMLElement>('.sched-grid--day');
    if (!table) return { lane, day };
    const axisStart = Number(table.dataset.axisStart);
    const axisEnd = Number(table.dataset.axisEnd);
    const rect = cell.getBoundingClientRect();
    return { lane, day, at: axisStart + ((x - rect.left) / rect.width) * (axisEnd - axisStart) };
  }, []);

  const onPointerDown = useCallback(
    (event: PointerEvent<HTMLElement>, job: ScheduleJob, mode: 'move' | 'resize') => {
      if (event.button !== 0) return;
      const card = event.currentTarget.closest<HTMLElement>('[data-job-id]') ?? event.currentTarget;
      const rect = card.getBoundingClientRect();
      let grabMinutes = 0;
      if (view === 'day' && job.scheduled_start_dt !== null && mode === 'move') {
        const span = spanOf(job);
        grabMinutes = ((event.clientX - rect.left) / rect.width) * ((span.end - span.start) / 60_000);
      }
      dragRef.current = { job, mode, pointerId: event.pointerId, x0: event.clientX, y0: event.clientY, grabMinutes, active: false };
    },
    [view],
  );

  // The pointer's moves and its release are followed on the window, wherever it goes.
  useEffect(() => {
    const move = (event: globalThis.PointerEvent) => {
      const d = dragRef.current;
      if (!d || event.pointerId !== d.pointerId) return;
      if (!d.active && Math.hypot(event.clientX - d.x0, event.clientY - d.y0) < 5) return;
      d.active = true;
      event.preventDefault();
      const target = targetAt(event.clientX, event.clientY);
      const placement = target && placementFor(d, target);
      const label = placement ? `${timeRange(placement.start, placement.end)} · ${laneName(placement.assignee)}` : 'Drop on a day and a person';
      setDrag({ job: d.job, target, x: event.clientX, y: event.clientY, label });
    };
    const end = (event: globalThis.PointerEvent) => {
      const d = dragRef.current;
      if (!d || event.pointerId !== d.pointerId) return;
      dragRef.current = undefined;
      setDrag(undefined);
      if (!d.active) return;
      suppressClick.current = true;
      setTimeout(() => (suppressClick.current = false), 0);
      if (event.type === 'pointercancel') return;
      const target = targetAt(event.clientX, event.clientY);
      const placement = target && placementFor(d, target);
      if (!placement) return;
      const span = d.job.scheduled_start_dt !== null ? spanOf(d.job) : undefined;
      if (span && placement.start === span.start && placement.end === span.end && placement.assignee === d.job.assignee) return;
      save(d.job, placement.start, placement.end, placement.assignee);
    };
    const escape = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape' && dragRef.current?.active) {
        dragRef.current = undefined;
        setDrag(undefined);
        suppressClick.current = true;
        setTimeout(() => (suppressClick.current = false), 0);
      }
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    window.addEventListener('keydown', escape);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      window.removeEventListener('keydown', escape);
    };
  }, [placementFor, save, targetAt]);

  const onOpen = useCallback(
    (job: ScheduleJob) => {
      if (suppressClick.current) return;
      void navigate(paths.jobs.edit.href(job.id));
    },
    [navigate],
  );

  /** Arrow keys move a job (a day, or a quarter of an hour in the day view) or to the next person; Shift with arrows changes its length. */
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>, job: ScheduleJob) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const { key, shiftKey } = event;
      if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(key)) return;
      event.preventDefault();
      if (job.scheduled_start_dt === null) return;
      const span = spanOf(job);
      const sign = key === 'ArrowLeft' || key === 'ArrowUp' ? -1 : 1;
      const day = dayOf(span.start, timeZone);
      let next: { start: number; end: number; assignee: string } | undefined;
      if (shiftKey && (key === 'ArrowLeft' || key === 'ArrowRight')) {
        const end = span.end + sign * snapMinutes * 60_000;
        if (end - span.start < snapMinutes * 60_000) return;
        next = { start: span.start, end, assignee: job.assignee };
      } else if (key === 'ArrowUp' || key === 'ArrowDown') {
        const lane = lanes[lanes.indexOf(job.assignee) + sign];
        if (lane === undefined) return;
        next = { start: span.start, end: span.end, assignee: lane };
      } else if (view === 'week') {
        const start = instantAt(addDays(day, sign), minuteOfDay(span.start, timeZone), timeZone);
        next = { start, end: start + (span.end - span.start), assignee: job.assignee };
      } else {
        // A quarter of an hour in instants: through a repeated or a skipped hour too.
        const start = span.start + sign * snapMinutes * 60_000;
        next = { start, end: start + (span.end - span.start), assignee: job.assignee };
      }
      focusAfter.current = job.id;
      save(job, next.start, next.end, next.assignee);
      // Moved past the days shown: the view follows it, and focus with it.
      const shown = days[0] && next.start >= days[0].start && next.start < (days.at(-1)?.end ?? 0);
      if (!shown) void navigate(paths.schedule.href({ view, date: dayOf(next.start, timeZone) }));
    },
    [days, lanes, navigate, save, timeZone, view],
  );

  const gridProps = {
    more,
    onMore: (date: string) => void navigate(paths.schedule.href({ view: 'day', date })),
    days,
    lanes,
    jobs,
    now,
    overlaps,
    draggingId: drag?.job.id,
    target: drag?.target,
    hintId,
    onPointerDown,
    onKeyDown,
    onOpen,
  };
  return (
    <div className={narrow ? 'sched sched--narrow' : 'sched'}>
      <div className="sched__main">
        <p id={hintId} className="sched__hint">
          {narrow
            ? 'Tap Move to change a job’s day, time or person.'
            : 'Drag a job to another day, time or person; in the day view drag its right edge to change its length. With the keyboard: Tab to a job, arrow keys move it, Shift with Left or Right changes its length, Enter opens it.'}
        </p>
        {failure && (
          <Notice tone="error" title="Not moved">
            {failure}
          </Notice>
        )}
        {schedule.isError && !schedule.data ? (
          <LoadErrorNotice title="The schedule could not be loaded" error={schedule.error} onRetry={() => void schedule.refetch()} />
        ) : !schedule.data ? (
          <p className="otto-loading" data-loading="">
            Loading the schedule…
          </p>
        ) : (
          <>
            {schedule.data.truncated && (
              <Notice tone="warning" title="Not every job is shown">
                These days hold more jobs than the schedule shows at once. Open one day to see its jobs.
              </Notice>
            )}
            {narrow ? (
              <Agenda days={days} jobs={jobs} now={now} overlaps={overlaps} more={more} onMove={setDialogJob} />
            ) : view === 'week' ? (
              <WeekGrid {...gridProps} />
            ) : (
              <DayGrid {...gridProps} />
            )}
            {jobs.length === 0 && <p className="sched__empty">Nothing is on the calendar {view === 'week' ? 'this week' : 'this day'}. Drag a job from the unscheduled list, or use its Schedule button.</p>}
          </>
        )}
      </div>
      <UnscheduledPanel query={unscheduled} draggingId={drag?.job.id} onPointerDown={narrow ? undefined : onPointerDown} onSchedule={(job) => !suppressClick.current && setDialogJob(job)} />
      <p className="otto-visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
      {drag && (
        <div className="sched-ghost" style={{ left: drag.x + 12, top: drag.y + 12 }} aria-hidden="true">
          <strong>{drag.job.title}</strong>
          <span>{drag.label}</span>
        </div>
      )}
      {dialogJob && (
        <PlaceJobDialog
          job={dialogJob}
          suggestedDay={days.find((d) => d.start <= now && now < d.end)?.key ?? first?.key ?? dayOf(now, timeZone)}
          lanes={lanes}
          timeZone={timeZone}
          onClose={() => setDialogJob(undefined)}
          onPlace={({ start, end, assignee }) => {
            setDialogJob(undefined);
            save(dialogJob, start, end, assignee);
          }}
        />
      )}
    </div>
  );
}
