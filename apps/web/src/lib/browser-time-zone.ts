/** The browser's IANA time zone: months and days on screen are this person's, not UTC's. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
