// How the schedule says days, times and lanes.
import type { ScheduleDay } from './schedule-time';

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const weekdayDate = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const longDate = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const dayMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** "9:00 AM – 11:00 AM", or the start alone when a job has no end. */
export function timeRange(start: number, end: number | null): string {
  return end === null ? time.format(start) : time.formatRange(start, end);
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
