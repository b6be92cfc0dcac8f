// Calendar arithmetic for the schedule, in the browser's time zone: days as `YYYY-MM-DD`, times of
// day as minutes, instants as epoch milliseconds.
import { formatDay, parseCalendarDate, startOfZonedDay, zonedParts } from '@otto/api-contract';

/** One calendar day of the schedule: its key and the instants it starts and ends at. */
export interface ScheduleDay {
  /** `YYYY-MM-DD`. */
  key: string;
  start: number;
  end: number;
}

/** Minutes a move or a resize snaps to. */
export const snapMinutes = 15;

/** The day `count` days after `day` (`YYYY-MM-DD`; negative counts go back). */
export function addDays(day: string, count: number): string {
  const { year, month, day: d } = parseCalendarDate(day);
  return formatDay(year, month, d + count);
}

/** The Monday of the week `day` is in (ISO weeks, as the Overview's week). */
export function mondayOf(day: string): string {
  const { year, month, day: d } = parseCalendarDate(day);
  const weekday = (new Date(Date.UTC(year, month - 1, d)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The day an instant falls on in `timeZone`. */
export function dayOf(epochMs: number, timeZone: string): string {
  const p = zonedParts(epochMs, timeZone);
  return formatDay(p.year, p.month, p.day);
}

/** `count` days from `first`, each with its bounds in `timeZone` (a day may be 23 or 25 hours long). */
export function daysFrom(first: string, count: number, timeZone: string): ScheduleDay[] {
  return Array.from({ length: count }, (_, i) => {
    const key = addDays(first, i);
    const { year, month, day } = parseCalendarDate(key);
    return { key, start: startOfZonedDay(year, month, day, timeZone), end: startOfZonedDay(year, month, day + 1, timeZone) };
  });
}

/** Minutes since midnight of an instant's wall-clock time in `timeZone`. */
export function minuteOfDay(epochMs: number, timeZone: string): number {
  const p = zonedParts(epochMs, timeZone);
  return p.hour * 60 + p.minute;
}

/**
 * The instant of a wall-clock time (`minutes` after midnight) on `day` in `timeZone`. A time that
 * does not exist (skipped when clocks go forward) is read as the same time on the old offset, so
 * it lands just after the gap, as calendars do.
 */
export function instantAt(day: string, minutes: number, timeZone: string): number {
  const { year, month, day: d } = parseCalendarDate(day);
  const midnight = startOfZonedDay(year, month, d, timeZone);
  const wall = Date.UTC(year, month - 1, d) + minutes * 60_000;
  // The offset at midnight, then at the first guess: one of them is the time's own offset.
  const offset0 = Date.UTC(year, month - 1, d) - midnight;
  let guess = wall - offset0;
  const p = zonedParts(guess, timeZone);
  const got = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  if (got !== wall) guess += wall - got;
  const q = zonedParts(guess, timeZone);
  return Date.UTC(q.year, q.month - 1, q.day, q.hour, q.minute) === wall ? guess : wall - offset0;
}

/** Rounds minutes to the nearest `snapMinutes`. */
export function snap(minutes: number): number {
  return Math.round(minutes / snapMinutes) * snapMinutes;
}
