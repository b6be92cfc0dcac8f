import { getSettings } from './settings';

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

const moneyFormats = new Map<string, Intl.NumberFormat>();
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * 125000 cents → "$1,250.00", "1.250,00 €": the business's currency (Settings) in the user's
 * locale.
 */
export function formatMoney(cents: number, currency = getSettings().currency): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  return format.format(cents / 100);
}

/** 125050 cents → "1250.50", the form field's value (the same in every locale). */
export function moneyInput(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * What a person typed as a price → cents; null when it is not an amount. "1250", "1250.5",
 * "1,250.50" and "1 250,50" all read as they are meant: with both separators the last one is the
 * decimal point, and a lone comma followed by one or two digits is one too ("12,50").
 */
export function parseMoney(text: string): number | null {
  let cleaned = text.replace(/[\s\u00a0\u202f']/g, '');
  if (cleaned === '') return 0;
  const lastComma = cleaned.lastIndexOf(',');
  const lastDot = cleaned.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    cleaned = cleaned.replaceAll(decimal === ',' ? '.' : ',', '').replace(decimal, '.');
  } else if (lastComma >= 0) {
    cleaned = /,\d{1,2}$/.test(cleaned) && cleaned.indexOf(',') === lastComma ? cleaned.replace(',', '.') : cleaned.replaceAll(',', '');
  }
  if (!/^\d+(\.\d{0,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** "Nov 21, 2026" in the user's locale. */
export function formatDate(epochMs: number): string {
  return dateOnly.format(epochMs);
}

/** Epoch ms → the value of an `<input type="datetime-local">` in local time. */
export function toDateTimeLocal(epochMs: number | null): string {
  if (epochMs === null) return '';
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The value of an `<input type="datetime-local">` → epoch ms, or null when empty or invalid. */
export function fromDateTimeLocal(value: string): number | null {
  if (value === '') return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Epoch ms → local wall-clock time in ISO order, "2026-12-01 08:00" (with `seconds`,
 * "2026-12-01 08:00:05"): what spreadsheets read as a date and time, in the zone of this browser.
 */
export function localIsoDateTime(epochMs: number, { seconds = false }: { seconds?: boolean } = {}): string {
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${seconds ? `:${pad(d.getSeconds())}` : ''}`;
  return `${day} ${time}`;
}
