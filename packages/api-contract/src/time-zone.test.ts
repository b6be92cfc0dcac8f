import { describe, expect, it } from 'vitest';
import { addMonths, formatDay, isTimeZone, startOfZonedDay, zonedMonthRange, zonedParts } from './time-zone';

const utc = (iso: string) => Date.parse(iso);

describe('time-zone calendar arithmetic', () => {
  it('finds local midnight on either side of a DST change', () => {
    expect(startOfZonedDay(2026, 3, 29, 'Europe/Berlin')).toBe(utc('2026-03-28T23:00:00Z'));
    expect(startOfZonedDay(2026, 3, 30, 'Europe/Berlin')).toBe(utc('2026-03-29T22:00:00Z'));
    expect(startOfZonedDay(2026, 10, 25, 'Europe/Berlin')).toBe(utc('2026-10-24T22:00:00Z'));
    expect(startOfZonedDay(2026, 10, 26, 'Europe/Berlin')).toBe(utc('2026-10-25T23:00:00Z'));
    expect(startOfZonedDay(2026, 11, 1, 'America/New_York')).toBe(utc('2026-11-01T04:00:00Z'));
    expect(startOfZonedDay(2026, 11, 2, 'America/New_York')).toBe(utc('2026-11-02T05:00:00Z'));
  });

  it('starts a day whose midnight the clocks skip at the jump', () => {
    // Chile moves its clocks from 00:00 to 01:00 on 6 September 2026.
    const start = startOfZonedDay(2026, 9, 6, 'America/Santiago');
    expect(zonedParts(start, 'America/Santiago')).toMatchObject({ year: 2026, month: 9, day: 6, hour: 1, minute: 0 });
    expect(zonedParts(start - 1, 'America/Santiago')).toMatchObject({ month: 9, day: 5, hour: 23 });
  });

  it('gives a month its boundaries in zones ahead of and behind UTC, and half-hour zones', () => {
    expect(zonedMonthRange('2026-01', 'Pacific/Auckland')).toEqual({ start: utc('2025-12-31T11:00:00Z'), end: utc('2026-01-31T11:00:00Z') });
    expect(zonedMonthRange('2026-12', 'America/Los_Angeles')).toEqual({ start: utc('2026-12-01T08:00:00Z'), end: utc('2027-01-01T08:00:00Z') });
    expect(zonedMonthRange('2026-02', 'Asia/Kolkata')).toEqual({ start: utc('2026-01-31T18:30:00Z'), end: utc('2026-02-28T18:30:00Z') });
    expect(zonedMonthRange('2026-05', 'UTC')).toEqual({ start: utc('2026-05-01T00:00:00Z'), end: utc('2026-06-01T00:00:00Z') });
  });

  it('rolls months and days over year ends, and knows real zone names only', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-12', 13)).toBe('2027-01');
    expect(formatDay(2026, 12, 32)).toBe('2027-01-01');
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
