import { paymentMethodLabels, type Invoice, type InvoiceAge } from '@otto/api-contract';
import { addDays, dayOf } from '../schedule/schedule-time';
import { browserTimeZone } from '../../lib/browser-time-zone';

/** How an invoice stands as people read it: open past its due date is Overdue. */
export type InvoiceState = 'open' | 'overdue' | 'paid' | 'void';

export const invoiceStateLabels: Record<InvoiceState, string> = { open: 'Open', overdue: 'Overdue', paid: 'Paid', void: 'Void' };

/** Today in this browser's time zone, `YYYY-MM-DD`. */
export function today(): string {
  return dayOf(Date.now(), browserTimeZone());
}

/** `days` after `day` (`YYYY-MM-DD`). */
export function daysAfter(day: string, days: number): string {
  return addDays(day, days);
}

/** Open, Overdue (open and due before `on`), Paid or Void. */
export function invoiceState(invoice: Pick<Invoice, 'status' | 'due_date'>, on = today()): InvoiceState {
  if (invoice.status === 'open' && invoice.due_date < on) return 'overdue';
  return invoice.status;
}

/** The Overview's and the list's words for an age: "0–30 days", "over 90 days". */
export const invoiceAgeLabels: Record<InvoiceAge, string> = {
  '0-30': '0–30 days',
  '31-60': '31–60 days',
  '61-90': '61–90 days',
  '90+': 'over 90 days',
};

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** "27 Nov 2026" for `2026-11-27` (the calendar day itself, in the user's locale). */
export function formatDay(day: string): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return dayFormat.format(Date.UTC(year, month - 1, date));
}

/** Basis points as a percentage for people: 2000 → "20", 1250 → "12.5". */
export function percentText(bp: number): string {
  return String(bp / 100);
}

/**
 * What a person typed as a percentage → basis points; null when it is not one. "20", "12.5",
 * "12,5", "20 %" all read as meant.
 */
export function parsePercent(text: string): number | null {
  const cleaned = text.replace(/[\s%\u00a0]/g, '').replace(',', '.');
  if (cleaned === '') return 0;
  if (!/^\d+(\.\d{0,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** What a person typed as a quantity → a number; null when it is not one ("1.5", "1,5"). */
export function parseQuantity(text: string): number | null {
  const cleaned = text.replace(/\s/g, '').replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

const quantityFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });

/** 1.5 → "1.5" in the user's locale. */
export function formatQuantity(quantity: number): string {
  return quantityFormat.format(quantity);
}

export { paymentMethodLabels };
