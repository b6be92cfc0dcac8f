// Calendar arithmetic in a named time zone with nothing but Intl (SQLite has no time-zone
// database): the report's months and days are bucketed by UTC boundaries computed here
// (decision 0080).

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * True when the runtime knows this IANA time zone name (`Europe/Berlin`, `UTC`).
 * @example
 * isTimeZone('America/New_York'); // true
 * isTimeZone('Mars/Olympus'); // false
 */
export function isTimeZone(timeZone: string): boolean {
  if (timeZone === '' || timeZone.length > 64) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * A calendar date and wall-clock time as read in some time zone; `month` is 1–12.
 * @example
 * const parts: ZonedParts = { year: 2026, month: 3, day: 29, hour: 3, minute: 0, second: 0 };
 */
export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * What the wall clock and calendar show at an instant in a time zone.
 * @example
 * zonedParts(Date.UTC(2026, 0, 1), 'America/New_York'); // { year: 2025, month: 12, day: 31, hour: 19, … }
 */
export function zonedParts(epochMs: number, timeZone: string): ZonedParts {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(epochMs)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms (whole seconds). */
function offsetAt(epochMs: number, timeZone: string): number {
  const p = zonedParts(epochMs, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - (epochMs - (((epochMs % 1000) + 1000) % 1000));
}

const dayMs = 86_400_000;

/**
 * The first instant of a calendar day in a time zone: its local midnight, or, where the clocks
 * skip midnight (a DST change at 00:00), the moment they jump. `month` is 1–12; days and months
 * out of range roll over as in `Date.UTC`.
 * @example
 * startOfZonedDay(2026, 3, 29, 'Europe/London'); // Date.UTC(2026, 2, 29, 0) (still GMT at midnight)
 * startOfZonedDay(2026, 7, 1, 'Europe/London'); // Date.UTC(2026, 5, 30, 23) (BST)
 */
export function startOfZonedDay(year: number, month: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  const target = new Date(wall);
  const want = [target.getUTCFullYear(), target.getUTCMonth() + 1, target.getUTCDate()];
  // At most one offset change lies within a day either side; the instant is wall minus one of them.
  const offsets = new Set([offsetAt(wall - dayMs, timeZone), offsetAt(wall, timeZone), offsetAt(wall + dayMs, timeZone)]);
  let best: number | undefined;
  for (const offset of offsets) {
    const candidate = wall - offset;
    const p = zonedParts(candidate, timeZone);
    if (p.year !== want[0] || p.month !== want[1] || p.day !== want[2]) continue;
    if (best === undefined || candidate < best) best = candidate;
  }
  return best ?? wall - offsetAt(wall, timeZone);
}

/**
 * A month as `YYYY-MM`, a day as `YYYY-MM-DD`.
 * @example
 * formatMonth(2026, 3); // '2026-03'
 */
export function formatMonth(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month - 1, 1));
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * A calendar day as `YYYY-MM-DD` (out-of-range days roll over).
 * @example
 * formatDay(2026, 12, 32); // '2027-01-01'
 */
export function formatDay(year: number, month: number, day: number): string {
  const d = new Date(Date.UTC(year, month - 1, day));
  return `${formatMonth(d.getUTCFullYear(), d.getUTCMonth() + 1)}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/**
 * Splits `YYYY-MM` or `YYYY-MM-DD` into numbers; `day` is 1 for a month.
 * @example
 * parseCalendarDate('2026-03'); // { year: 2026, month: 3, day: 1 }
 */
export function parseCalendarDate(value: string): { year: number; month: number; day: number } {
  const [year = 0, month = 1, day = 1] = value.split('-').map(Number);
  return { year, month, day };
}

/**
 * The UTC boundaries of a calendar month in a time zone: `[start, end)` in epoch ms.
 * @example
 * zonedMonthRange('2026-03', 'Europe/Berlin'); // { start: Date.UTC(2026, 1, 28, 23), end: Date.UTC(2026, 2, 31, 22) }
 */
export function zonedMonthRange(month: string, timeZone: string): { start: number; end: number } {
  const { year, month: m } = parseCalendarDate(month);
  return { start: startOfZonedDay(year, m, 1, timeZone), end: startOfZonedDay(year, m + 1, 1, timeZone) };
}

/**
 * Adds whole months to `YYYY-MM`.
 * @example
 * addMonths('2026-01', -1); // '2025-12'
 */
export function addMonths(month: string, count: number): string {
  const { year, month: m } = parseCalendarDate(month);
  return formatMonth(year, m + count);
}
