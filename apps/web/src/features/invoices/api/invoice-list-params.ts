import { invoiceAges, limits, type InvoiceAge, type InvoiceListParams } from '@otto/api-contract';
import type { QueryClient } from '@tanstack/react-query';
import { browserTimeZone } from '../../../lib/browser-time-zone';
import { pageSizes } from '../../../lib/list-order';
import { readListPlace } from '../../../lib/use-list-search-params';
import { invoicesOptions } from './get-invoices';

export const invoiceTabs = ['open', 'overdue', 'paid', 'void'] as const;
export type InvoiceTab = (typeof invoiceTabs)[number];

/** What the invoice list's URL asks for. */
export interface InvoiceListRequest {
  status: InvoiceTab | undefined;
  age: InvoiceAge | undefined;
  customerId: string | undefined;
  page: number;
  pageSize: number;
  list: InvoiceListParams;
}

/**
 * Reads the invoice list's URL: `status`, `age`, `customer`, `size` and `page`; an unknown value is
 * ignored. Overdue and an age count days in this browser's time zone (`tz`).
 * @example
 * invoiceListRequest(new URLSearchParams('status=overdue')).list; // { status: 'overdue', tz: 'Europe/Berlin', limit: 10, offset: 0 }
 */
export function invoiceListRequest(searchParams: URLSearchParams): InvoiceListRequest {
  const { page } = readListPlace(searchParams);
  const rawStatus = searchParams.get('status');
  const status = (invoiceTabs as readonly string[]).includes(rawStatus ?? '') ? (rawStatus as InvoiceTab) : undefined;
  const rawAge = searchParams.get('age');
  const age = (invoiceAges as readonly string[]).includes(rawAge ?? '') ? (rawAge as InvoiceAge) : undefined;
  const rawCustomer = searchParams.get('customer') ?? '';
  const customerId = /^[1-9]\d{0,15}$/.test(rawCustomer) ? rawCustomer : undefined;
  const size = Number(searchParams.get('size'));
  const pageSize = (pageSizes as readonly number[]).includes(size) ? size : limits.defaultPageSize;
  const list: InvoiceListParams = {
    ...(customerId ? { customerId } : {}),
    ...(status ? { status } : {}),
    ...(age ? { age } : {}),
    ...(status === 'overdue' || age ? { tz: browserTimeZone() } : {}),
    limit: pageSize,
    offset: (page - 1) * pageSize,
  };
  return { status, age, customerId, page, pageSize, list };
}

/** Starts the invoice list's request for `url` (the list screen's first data). */
export function prefetchInvoiceList(queryClient: QueryClient, url: URL): void {
  void queryClient.prefetchQuery(invoicesOptions(invoiceListRequest(url.searchParams).list));
}
