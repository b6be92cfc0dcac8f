import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { paths } from './paths';

/** The lists a screen can go back to, with the search (`?q=…&page=…`) the user last had. */
export type ListName = 'customers' | 'jobs' | 'invoices';

const base: Record<ListName, string> = {
  customers: paths.customers.list.href(),
  jobs: paths.jobs.list.href(),
  invoices: paths.invoices.list.href(),
};
const storageKey = (list: ListName) => `otto.list-return.${list}`;
// When sessionStorage is unavailable (a locked-down browser), the tab's memory serves.
const memory = new Map<ListName, string>();

function read(list: ListName): string {
  try {
    return sessionStorage.getItem(storageKey(list)) ?? '';
  } catch {
    return memory.get(list) ?? '';
  }
}

function write(list: ListName, search: string): void {
  memory.set(list, search);
  try {
    sessionStorage.setItem(storageKey(list), search);
  } catch {
    // memory holds it
  }
}

/**
 * Remembers the list's search, page and order (its URL query) in this tab, so that "Back to
 * customers" from any screen returns to the same place, also after a reload of that screen.
 * @example
 * useRememberListLocation('customers'); // in the customer list screen
 */
export function useRememberListLocation(list: ListName): void {
  const { search } = useLocation();
  useEffect(() => write(list, search), [list, search]);
}

/**
 * The list's address with the search the user last had there in this tab.
 * @example
 * <Link to={listReturnHref('customers')}>Back to customers</Link>
 */
export function listReturnHref(list: ListName): string {
  const search = read(list);
  return search.startsWith('?') ? `${base[list]}${search}` : base[list];
}
