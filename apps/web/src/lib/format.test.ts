import { describe, expect, it } from 'vitest';
import { localIsoDateTime, moneyInput, parseMoney } from './format';

describe('parseMoney', () => {
  it('reads prices the way people type them', () => {
    const cases: [string, number | null][] = [
      ['', 0],
      ['1250', 125000],
      ['1250.5', 125050],
      ['1,250.50', 125050],
      ['1.250,50', 125050],
      ['1 250,50', 125050],
      ["1'250.50", 125050],
      ['12,50', 1250],
      ['1,250', 125000],
      ['12.345', null],
      ['-5', null],
      ['abc', null],
    ];
    for (const [text, cents] of cases) expect(parseMoney(text), text).toBe(cents);
  });

  it('round-trips the value the form shows', () => {
    for (const cents of [0, 5, 1250, 125050, 99999999]) expect(parseMoney(moneyInput(cents))).toBe(cents);
  });
});

describe('localIsoDateTime', () => {
  it('writes local wall-clock time in ISO order, with seconds when asked', () => {
    const ms = new Date(2026, 11, 1, 8, 0, 5).getTime();
    expect(localIsoDateTime(ms)).toBe('2026-12-01 08:00');
    expect(localIsoDateTime(ms, { seconds: true })).toBe('2026-12-01 08:00:05');
  });
});
