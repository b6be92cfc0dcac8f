// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CsvFileError, checkFileSize, decodeCsvBytes, maxImportFileBytes, parseCsvText } from './csv-file';
import { buildCustomerRows, buildJobRows, dateOrderOf, matchColumns, parseDateCell, parsePriceCell, parseStatusCell, skippedRowsCsv } from './import-core';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

describe('reading a CSV file', () => {
  it('reads UTF-8 with and without a BOM, and Windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeCsvBytes(bytes([0xef, 0xbb, 0xbf], 'Name\nZoë'))).toEqual({ text: 'Name\nZoë', encoding: 'UTF-8' });
    expect(decodeCsvBytes(bytes('Name\nZoë'))).toEqual({ text: 'Name\nZoë', encoding: 'UTF-8' });
    // "Zoë Müller – €5" in Windows-1252: ë = EB, ü = FC, – = 96, € = 80.
    expect(decodeCsvBytes(bytes('Zo', [0xeb], ' M', [0xfc], 'ller ', [0x96], ' ', [0x80], '5'))).toEqual({ text: 'Zoë Müller – €5', encoding: 'Windows-1252' });
  });

  it('refuses empty, too large, binary, workbook and HTML files in words', () => {
    expect(() => checkFileSize(0)).toThrow(/empty/);
    expect(() => checkFileSize(maxImportFileBytes + 1)).toThrow(/up to 20 MB.*Split it/);
    expect(() => decodeCsvBytes(bytes([0x50, 0x4b, 0x03, 0x04, 1, 2]))).toThrow(/Excel workbook/);
    expect(() => decodeCsvBytes(bytes('abc', [0, 1, 2]))).toThrow(/binary data/);
    expect(() => parseCsvText('<!DOCTYPE html><html><body>hi</body></html>')).toThrow(CsvFileError);
    expect(() => parseCsvText('Name,Email\n')).toThrow(/no rows of data/);
    expect(() => parseCsvText('\n\n  ')).toThrow(/no text/);
  });

  it('guesses comma, semicolon or tab, and keeps quoted commas, quotes and line breaks', () => {
    const semi = parseCsvText('Name;E-mail;Tel\r\n"Dupont; Jean";jean@example.fr;"+33 1 ""42"""\r\n\r\n"Line\nbreak";x@y.z;1\r\n');
    expect(semi).toEqual({ headers: ['Name', 'E-mail', 'Tel'], delimiter: ';', rows: [['Dupont; Jean', 'jean@example.fr', '+33 1 "42"'], ['Line\nbreak', 'x@y.z', '1']] });
    expect(parseCsvText('a\tb\n1\t2').delimiter).toBe('\t');
    expect(parseCsvText('a,b\n"1,5",2').rows).toEqual([['1,5', '2']]);
  });
});

describe('matching columns and building rows', () => {
  it('matches the headers people use, in any case', () => {
    expect(matchColumns('customers', ['Full name', 'E-mail', 'Phone number'])).toEqual({ full_name: 0, email: 1, phone: 2 });
    expect(matchColumns('customers', ['TEL', 'Email address', 'NAME', 'id'])).toEqual({ full_name: 2, email: 1, phone: 0 });
    expect(matchColumns('customers', ['Company'])).toEqual({ full_name: null, email: null, phone: null });
    expect(matchColumns('jobs', ['Job title', 'Client', 'Customer email', 'Status', 'Amount', 'Date'])).toMatchObject({
      title: 0, customer_name: 1, customer_email: 2, status: 3, price: 4, scheduled_start: 5,
    });
  });

  it("strips Otto's own formula guard, keeps other text as it is, and names rows with too many values", () => {
    const built = buildCustomerRows(['Name', 'Email', 'Phone'], [
      ["'=HYPERLINK(\"x\")", 'a@b.co', "'+44 20 7946"],
      ["'Tis the season", 'b@b.co', '1', ''],
      ['Too', 'many', 'values', 'here'],
    ], { full_name: 0, email: 1, phone: 2 });
    expect(built.rows).toEqual([
      { full_name: '=HYPERLINK("x")', email: 'a@b.co', phone: '+44 20 7946' },
      { full_name: "'Tis the season", email: 'b@b.co', phone: '1' },
    ]);
    expect(built.rowNumbers).toEqual([2, 3]);
    expect(built.problems).toEqual([{ rowNumber: 4, message: expect.stringContaining('4 values but the header names 3 columns') }]);
  });

  it('reads dates without guessing the order, prices and statuses', () => {
    expect(dateOrderOf(['03/04/2026', '05/06/2026'])).toBe('ambiguous');
    expect(dateOrderOf(['03/04/2026', '25/06/2026'])).toBe('dmy');
    expect(dateOrderOf(['03/04/2026', '06/25/2026'])).toBe('mdy');
    expect(dateOrderOf(['2026-04-03', ''])).toBe('none');
    expect(dateOrderOf(['25/06/2026', '06/25/2026'])).toBe('conflict');
    expect(parseDateCell('03/04/2026', undefined)).toMatch(/day first or month first/);
    expect(parseDateCell('03/04/2026 2:30 pm', 'dmy')).toBe(new Date(2026, 3, 3, 14, 30).getTime());
    expect(parseDateCell('03/04/2026', 'mdy')).toBe(new Date(2026, 2, 4).getTime());
    expect(parseDateCell('1.12.2026', undefined)).toBe(new Date(2026, 11, 1).getTime());
    expect(parseDateCell('2026-12-01 08:00', undefined)).toBe(new Date(2026, 11, 1, 8).getTime());
    expect(parseDateCell('2026-12-01T07:00:00.000Z', undefined)).toBe(Date.UTC(2026, 11, 1, 7));
    expect(parseDateCell('31/02/2026', 'dmy')).toMatch(/not a real date/);
    expect(parseDateCell('next tuesday', 'dmy')).toMatch(/not a date/);
    expect(parseDateCell('', 'dmy')).toBeNull();
    expect([parsePriceCell('12.50'), parsePriceCell('12,5'), parsePriceCell('€1,234.56'), parsePriceCell('1.234,56'), parsePriceCell('$ 1 234'), parsePriceCell('')]).toEqual([
      1250, 1250, 123456, 123456, 123400, undefined,
    ]);
    expect(parsePriceCell('free')).toMatch(/not a price/);
    expect([parseStatusCell('In progress'), parseStatusCell('in_progress'), parseStatusCell('PAID'), parseStatusCell('')]).toEqual(['in_progress', 'in_progress', 'paid', undefined]);
    expect(parseStatusCell('lost')).toMatch(/not a status/);
  });

  it('builds job rows, and makes a row with an unreadable cell a problem', () => {
    const headers = ['Title', 'Customer', 'Status', 'Price', 'Date'];
    const built = buildJobRows(headers, [['Boiler', 'Ada', 'Quote', '125.00', '2026-12-01 08:00'], ['Roof', 'Ada', 'lost', '', '']], {
      title: 0, customer_name: 1, status: 2, price: 3, scheduled_start: 4,
    }, undefined);
    expect(built.rows).toEqual([{ title: 'Boiler', customer_name: 'Ada', status: 'quote', price_cents: 12500, scheduled_start_dt: new Date(2026, 11, 1, 8).getTime() }]);
    expect(built.problems).toEqual([{ rowNumber: 3, message: expect.stringContaining('“lost” is not a status') }]);
  });

  it('writes the skipped rows as CSV with the reason, guarded like every Otto export', () => {
    const csv = skippedRowsCsv(['Name', 'Email'], [['Ada', 'bad'], ['=1+1', 'x@y.z']], new Map([[3, 'A duplicate.'], [2, 'email: Enter an email address.']]));
    expect(csv).toBe('"Name","Email","Why it was skipped"\r\n"Ada","bad","email: Enter an email address."\r\n"\'=1+1","x@y.z","A duplicate."\r\n');
  });
});
