// The customer list's first screen, for the memory bench (src/node/memory.ts): once the page's
// backend is ready, the first page of /api/customers as the app's list asks for it, drawn as a
// table whose rows link to each customer's edit page as the app's rows do (the bench waits for the
// first such link, as the start-up bench does in the app). Only on pages opened with `?list`.
import { firstListPage } from '../shared/ops';

interface ListedCustomer {
  id: string;
  full_name: string;
  email: string;
  phone: string;
}

function cell(row: HTMLTableRowElement, text: string): HTMLTableCellElement {
  const td = row.insertCell();
  td.textContent = text;
  return td;
}

async function showCustomerList(ready: Promise<unknown>): Promise<void> {
  await ready;
  const response = await fetch(firstListPage);
  if (!response.ok) throw new Error(`GET ${firstListPage} answered ${response.status}`);
  const customers = (await response.json()) as ListedCustomer[];
  const table = document.createElement('table');
  for (const customer of customers) {
    const row = table.insertRow();
    const link = document.createElement('a');
    link.href = `/biz/customers/edit/${encodeURIComponent(customer.id)}`;
    link.textContent = customer.full_name;
    cell(row, '').append(link);
    cell(row, customer.email);
    cell(row, customer.phone);
  }
  document.body.append(table);
}

/** Shows the list when the page was opened with `?list`; a failure goes to the console, where the bench reads it. */
export function showCustomerListIfAsked(ready: Promise<unknown>): void {
  if (!new URLSearchParams(location.search).has('list')) return;
  showCustomerList(ready).catch((error: unknown) => console.error(`customer list: ${error instanceof Error ? error.message : String(error)}`));
}
