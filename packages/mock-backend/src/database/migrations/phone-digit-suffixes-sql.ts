// The SQL that writes a phone's digit suffixes into phone_digits, shared by migrations 6 and 12 and the import's full-text rows.
/** Phones longer than this many characters keep only the digits of their first 40 in phone_digits. */
const phoneDigitsScanLength = 40;

/**
 * SQL for the phone_digits text of a phone: every suffix of its digits that has at least four of
 * them, separated by spaces ('' when it has fewer than four). Written out position by position, as
 * SQLite has no regular expressions and triggers take no common table expressions.
 */
export function phoneDigitSuffixesSql(phone: string): string {
  return `(SELECT ${suffixesOfDigitsSql('d')} FROM (SELECT ${phoneDigitsSql(phone)} AS d))`;
}

/** SQL for the digits of a phone's first 40 characters, in order. */
export function phoneDigitsSql(phone: string): string {
  return Array.from(
    { length: phoneDigitsScanLength },
    (_, i) => `CASE WHEN substr(${phone}, ${i + 1}, 1) GLOB '[0-9]' THEN substr(${phone}, ${i + 1}, 1) ELSE '' END`,
  ).join(' || ');
}

/**
 * SQL for every suffix of at least four digits of `digits` (a column or expression of digits),
 * separated by spaces. Give it a column: SQLite writes the expression out at each of its 74 uses.
 */
export function suffixesOfDigitsSql(digits: string): string {
  return Array.from(
    { length: phoneDigitsScanLength - 3 },
    (_, i) => `CASE WHEN length(${digits}) >= ${i + 4} THEN substr(${digits}, 1 + length(${digits}) - ${i + 4}) || ' ' ELSE '' END`,
  ).join(' || ');
}
