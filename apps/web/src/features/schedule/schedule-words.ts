// How the schedule says days, times and lanes.
import type { ScheduleDay } from './schedule-time';

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const weekdayDate = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const longDate = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const dayMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short' });

/**
 * "09:00–11:00" (the locale's own way), the start alone when a job has no end, and the end's
 * weekday when it ends on another day ("23:00 – Sat 04:00").
 */
export function timeRange(start: number, end: number | null): string {
  if (end === null) return time.format(start);
  if (end - start < 24 * 3_600_000 && new Date(start).toDateString() === new Date(end).toDateString()) return time.formatRange(start, end);
  return `${time.format(start)} – ${weekday.format(end)} ${time.format(end)}`;
}

/** "Tue, Nov 24". */
export function shortDay(day: ScheduleDay): string {
  return weekdayDate.format(day.start);
}

/** "Tuesday, November 24, 2026". */
export function longDay(day: ScheduleDay): string {
  return longDate.format(day.start);
}

/** "Nov 23 – 29, 2026": the range shown. */
export function rangeLabel(days: readonly ScheduleDay[]): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return '';
  return first === last ? longDay(first) : dayMonth.formatRange(first.start, last.start);
}

/** A lane's name: the person, or "Unassigned". */
export function laneName(lane: string): string {
  return lane === '' ? 'Unassigned' : lane;
}

/** An hour of the day view's ruler: "9 AM". */
export function hourLabel(epochMs: number): string {
  return new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).format(epochMs);
}
