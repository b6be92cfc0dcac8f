/**
 * Rows as CSV (RFC 4180): every cell quoted, quotes doubled, CRLF line ends. A cell that a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets a leading
 * apostrophe, so data stays data when the file is opened.
 * @example
 * toCsv([['name'], ['=1+1']]); // '"name"\r\n"\'=1+1"\r\n'
 */
export function toCsv(rows: readonly (readonly (string | number | null)[])[]): string {
  return rows
    .map((row) =>
      row
        .map((cell) => {
          const text = cell === null ? '' : String(cell);
          const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
          return `"${safe.replaceAll('"', '""')}"`;
        })
        .join(','),
    )
    .map((line) => `${line}\r\n`)
    .join('');
}
