import { describe, expect, it } from 'vitest';
import { addDays, dayOf, daysFrom, instantAt, minuteOfDay, mondayOf, snap } from './schedule-time';

describe('schedule time', () => {
  it('finds the Monday of a week, across months and years', () => {
    expect(mondayOf('2026-11-27')).toBe('2026-11-23');
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2027-01-03')).toBe('2026-12-28');
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('gives days their real length where the clocks change', () => {
    const [saturday, sunday] = daysFrom('2026-03-28', 2, 'Europe/Berlin');
    expect(saturday && (saturday.end - saturday.start) / 3_600_000).toBe(24);
    expect(sunday && (sunday.end - sunday.start) / 3_600_000).toBe(23);
    expect(sunday?.key).toBe('2026-03-29');
  });

  it('turns a wall-clock time into the instant and back, in any zone', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham']) {
      for (const day of ['2026-03-08', '2026-03-29', '2026-11-01', '2026-11-25']) {
        for (const minutes of [0, 9 * 60, 13 * 60 + 45, 23 * 60 + 45]) {
          const at = instantAt(day, minutes, zone);
          if (minuteOfDay(at, zone) !== minutes) continue; // a time the clocks skipped
          expect(dayOf(at, zone), `${zone} ${day} ${minutes}`).toBe(day);
        }
        const nine = instantAt(day, 9 * 60, zone);
        expect(minuteOfDay(nine, zone), `${zone} ${day}`).toBe(9 * 60);
      }
    }
    // 02:30 does not exist in Berlin on 29 March 2026: it lands after the gap.
    expect(minuteOfDay(instantAt('2026-03-29', 150, 'Europe/Berlin'), 'Europe/Berlin')).toBe(210);
  });

  it('snaps to a quarter of an hour', () => {
    expect([snap(7), snap(8), snap(52), snap(-8)]).toEqual([0, 15, 45, -15]);
  });
});
