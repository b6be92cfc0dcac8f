import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('quotes every cell and doubles quotes', () => {
    expect(toCsv([['a', 'say "hi"', 3, null]])).toBe('"a","say ""hi""","3",""\r\n');
  });

  it('keeps commas, newlines and markup inside their cell', () => {
    expect(toCsv([['1, Main St\nFlat 2', '<script>alert(1)</script>']])).toBe('"1, Main St\nFlat 2","<script>alert(1)</script>"\r\n');
  });

  it('stops spreadsheet formulas from running', () => {
    expect(toCsv([['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', 'ok=1']])).toBe(
      '"\'=HYPERLINK(""x"")","\'+1","\'-2","\'@SUM(A1)","ok=1"\r\n',
    );
  });
});
