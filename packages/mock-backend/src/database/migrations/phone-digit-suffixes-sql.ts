// The SQL that writes a phone's digit suffixes into phone_digits, shared by migrations 6 and 12 and the import's full-text rows.
/** Phones longer than this many characters keep only the digits of their first 40 in phone_digits. */
const phoneDigitsScanLength = 40;

/**
 * SQL for the phone_digits text of a phone: every suffix of its digits that has at least four of
 * them, separated by spaces ('' when it has fewer than four). Written out position by position, as
 * SQLite has no regular expressions and triggers take no common table expressions.
 */
export function phoneDigitSuffixesSql(phone: string): string {
  const digits = Array.from(
    { length: phoneDigitsScanLength },
    (_, i) => `CASE WHEN substr(${phone}, ${i + 1}, 1) GLOB '[0-9]' THEN substr(${phone}, ${i + 1}, 1) ELSE '' END`,
  ).join(' || ');
  const suffixes = Array.from(
    { length: phoneDigitsScanLength - 3 },
    (_, i) => `CASE WHEN length(d) >= ${i + 4} THEN substr(d, 1 + length(d) - ${i + 4}) || ' ' ELSE '' END`,
  ).join(' || ');
  return `(SELECT ${suffixes} FROM (SELECT ${digits} AS d))`;
}
