const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const count = new Intl.NumberFormat();

/** "Nov 21, 2026, 3:04 PM" in the user's locale. */
export function formatDateTime(epochMs: number): string {
  return dateTime.format(epochMs);
}

/** "1 customer", "1,204 customers". */
export function formatCount(n: number, singular: string, plural = `${singular}s`): string {
  return `${count.format(n)} ${n === 1 ? singular : plural}`;
}
