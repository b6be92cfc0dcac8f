import { invoiceTotals, priceLine } from '@otto/api-contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeBackendHandle } from '../../test/fake-backend-handle';
import { renderApp } from '../../test/render-app';
import { formatMoney } from '../../lib/format';
import { liveTotals, validateInvoice, type LineValues } from './components/invoice-form';

vi.mock('../../backend/start-backend', () => ({ ensureBackend: async () => fakeBackendHandle() }));

const start = renderApp;

/** The value shown beside a label of the totals (Subtotal, Tax, Total). */
function total(label: string): string {
  const totals = screen.getByLabelText('Totals');
  const term = within(totals).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

const line = (description: string, quantity: string, unitPrice: string, tax: string, discount = '0'): LineValues => ({
  key: description,
  description,
  quantity,
  unitPrice,
  tax,
  discount,
});

describe('invoice form totals', () => {
  it('prices each line by the contract’s one rounding rule and sums the rounded lines', () => {
    const lines = [line('Labour', '1.5', '49.99', '20'), line('Parts', '3', '12.345', '20'), line('Call-out', '1', '60', '0', '10')];
    const { priced, totals } = liveTotals(lines);
    // 1.5 × 49.99 = 74.985 → 74.99 (half up), tax 15.00 (14.998), total 89.99.
    expect(priced[0]).toMatchObject({ amount_cents: 7499, tax_cents: 1500, total_cents: 8999 });
    // 12.345 is not a price: that line is left out until it is one.
    expect(priced[1]).toBeNull();
    expect(priced[2]).toMatchObject({ amount_cents: 6000, discount_cents: 600, tax_cents: 0, total_cents: 5400 });
    expect(totals).toEqual({ subtotal_cents: 13499, discount_cents: 600, tax_cents: 1500, total_cents: 14399 });
  });

  it('names each broken field as the server does (lines.0.quantity), in words', () => {
    const { input, errors } = validateInvoice({
      customer: null,
      jobIds: [],
      issueDate: '2026-11-27',
      dueDate: '2026-11-20',
      lines: [line('', 'two', '10', '20'), line('Parts', '1', 'ten', '120')],
      note: '',
    });
    expect(input).toBeUndefined();
    expect(errors).toMatchObject({
      customer_id: 'Choose a customer.',
      due_date: 'The due date cannot be before the issue date.',
      'lines.0.description': 'Describe the line.',
      'lines.0.quantity': 'Enter a quantity like 1 or 1.5.',
      'lines.1.unit_price_cents': 'Enter a price like 125.50.',
      'lines.1.tax_rate_bp': 'A rate is at most 100 %.',
    });
  });

  it('starts from a completed job, shows live totals as lines are added, and issues the invoice', async () => {
    const user = userEvent.setup();
    const { api, router } = await start('/biz/overview');
    const job = api.store.get<{ id: number; title: string; price_cents: number; customer_id: number }>(
      "SELECT id, title, price_cents, customer_id FROM jobs WHERE status = 'completed' AND archived_dt IS NULL ORDER BY id LIMIT 1",
    )!;
    api.store.run('UPDATE business_settings SET default_tax_rate_bp = 2000, payment_terms_days = 14');
    await act(() => router.navigate(`/biz/invoices/new?jobs=${job.id}`));
    const description = await screen.findByLabelText('Description');
    expect((description as HTMLInputElement).value).toBe(job.title);
    expect((screen.getByLabelText('Unit price') as HTMLInputElement).value).toBe((job.price_cents / 100).toFixed(2));
    expect((screen.getByLabelText('Tax %') as HTMLInputElement).value).toBe('20');
    const first = priceLine({ description: job.title, quantity: 1, unit_price_cents: job.price_cents, tax_rate_bp: 2000, discount_bp: 0 });
    expect(total('Total')).toBe(formatMoney(first.total_cents));

    // Headings in order (axe's heading-order): the page's h1, then each line's h2.
    expect(screen.getByRole('heading', { name: 'Line 1' }).tagName).toBe('H2');
    expect([...document.querySelectorAll('h1, h2, h3, h4')].map((h) => h.tagName).filter((tag, i, all) => i > 0 && Number(tag[1]) > Number(all[i - 1]![1]) + 1)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Add a line' }));
    const second = screen.getAllByRole('listitem').find((li) => li.getAttribute('aria-labelledby') && within(li).queryByText('Line 2'))!;
    await waitFor(() => expect(document.activeElement).toBe(within(second).getByLabelText('Description')));
    await user.type(within(second).getByLabelText('Description'), 'Labour');
    await user.clear(within(second).getByLabelText('Quantity'));
    await user.type(within(second).getByLabelText('Quantity'), '1.5');
    await user.type(within(second).getByLabelText('Unit price'), '49.99');
    await user.clear(within(second).getByLabelText('Discount %'));
    await user.type(within(second).getByLabelText('Discount %'), '10');
    const labour = priceLine({ description: 'Labour', quantity: 1.5, unit_price_cents: 4999, tax_rate_bp: 2000, discount_bp: 1000 });
    const sums = invoiceTotals([first, labour]);
    expect(total('Subtotal')).toBe(formatMoney(sums.subtotal_cents));
    expect(total('Discount')).toBe(`−${formatMoney(sums.discount_cents)}`);
    expect(total('Tax')).toBe(formatMoney(sums.tax_cents));
    expect(total('Total')).toBe(formatMoney(sums.total_cents));

    await user.click(screen.getByRole('button', { name: 'Create invoice' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/biz\/invoices\/\d+$/));
    const heading = await screen.findByRole('heading', { level: 1, name: /^Invoice / });
    const saved = api.store.get<{ total_cents: number; tax_cents: number }>('SELECT total_cents, tax_cents FROM invoices ORDER BY id DESC LIMIT 1')!;
    expect(saved).toEqual({ total_cents: sums.total_cents, tax_cents: sums.tax_cents });
    expect(api.store.get<{ status: string }>('SELECT status FROM jobs WHERE id = ?', [job.id])!.status).toBe('invoiced');
    expect(heading.textContent).toMatch(/^Invoice \S+\d{4}$/);
    expect(within(screen.getByRole('article')).getByText('Balance due').nextElementSibling?.textContent).toBe(formatMoney(sums.total_cents));
  });

  it('shows the server’s refusal by the field it names, in words', async () => {
    const user = userEvent.setup();
    const { api, router } = await start('/biz/overview');
    const invoiced = api.store.get<{ id: number }>("SELECT id FROM jobs WHERE status = 'invoiced' AND archived_dt IS NULL ORDER BY id LIMIT 1")!;
    await act(() => router.navigate(`/biz/invoices/new?jobs=${invoiced.id}`));
    await screen.findByLabelText('Description');
    await user.click(screen.getByRole('button', { name: 'Create invoice' }));
    expect(await screen.findByText(`Job ${invoiced.id} is already on an invoice. Void that one first.`, { selector: '.invoice-lines__error' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/biz/invoices/new');
  });
});

describe('an invoice’s page', () => {
  it('edits an open invoice over the version shown, records and removes a payment, then voids it', async () => {
    const user = userEvent.setup();
    const { api, router } = await start('/biz/overview');
    const created = await api.fetch(
      new Request('http://localhost/api/invoices', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customer_id: '1', issue_date: '2026-11-02', due_date: '2026-11-16', lines: [{ description: 'Call-out', unit_price_cents: 6000 }] }),
      }),
    );
    const { id, reference } = (await created.json()) as { id: string; reference: string };
    await act(() => router.navigate(`/biz/invoices/${id}`));
    await screen.findByRole('heading', { level: 1, name: `Invoice ${reference}` });
    await user.click(screen.getByRole('link', { name: 'Edit' }));
    const quantity = await screen.findByLabelText('Quantity');
    await user.clear(quantity);
    await user.type(quantity, '2');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(`Invoice ${reference} was saved.`)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/biz/invoices/${id}`));
    expect(api.store.get('SELECT total_cents FROM invoices WHERE id = ?', [Number(id)])).toEqual({ total_cents: 12_000 });

    // A payment: the amount starts at the balance; then removed again.
    const amount = await screen.findByLabelText('Amount');
    expect((amount as HTMLInputElement).value).toBe('120.00');
    await user.clear(amount);
    await user.type(amount, '20');
    await user.click(screen.getByRole('button', { name: 'Record payment' }));
    expect(await screen.findByText(`A payment of ${formatMoney(2000)} was recorded. Balance due: ${formatMoney(10_000)}.`)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Void' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: /^Remove the payment of/ }));
    expect(await screen.findByText(`The payment of ${formatMoney(2000)} was removed. Balance due: ${formatMoney(12_000)}.`)).toBeTruthy();

    await user.click(await screen.findByRole('button', { name: 'Void' }));
    const dialog = await screen.findByRole('alertdialog', { name: `Void invoice ${reference}?` });
    await user.click(within(dialog).getByRole('button', { name: 'Void invoice' }));
    expect(await screen.findByText(`Invoice ${reference} is void.`)).toBeTruthy();
    await waitFor(() => expect(api.store.get<{ voided_dt: number | null }>('SELECT voided_dt FROM invoices WHERE id = ?', [Number(id)])!.voided_dt).not.toBeNull());
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });
});

describe('invoice list', () => {
  it('lists invoices with status tabs kept in the URL, and asks for overdue in this browser’s time zone', async () => {
    const user = userEvent.setup();
    const { api, router, requests } = await start('/biz/invoices');
    const all = api.store.get<{ n: number }>('SELECT count(*) AS n FROM invoices')!.n;
    const paid = api.store.get<{ n: number }>('SELECT count(*) AS n FROM invoices WHERE voided_dt IS NULL AND balance_cents = 0')!.n;
    expect(paid).toBeGreaterThan(0);
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByRole('row').slice(1)).toHaveLength(Math.min(all, 10)));
    expect(screen.getByText(new RegExp(`${all} invoices?`))).toBeTruthy();

    const tabs = screen.getByRole('group', { name: 'Filter by status' });
    await user.click(within(tabs).getByRole('button', { name: /^Paid/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=paid'));
    await waitFor(() => {
      const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
      expect(rows).toHaveLength(Math.min(paid, 10));
      expect(rows.every((row) => within(row).queryByText('Paid'))).toBe(true);
    });

    await user.click(within(tabs).getByRole('button', { name: /^Overdue/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=overdue'));
    await waitFor(() => expect(requests.some((r) => decodeURIComponent(r).includes('"status":"overdue"') && decodeURIComponent(r).includes('"tz":'))).toBe(true));
    // Today as the app counts it: in the time zone it runs in (en-CA writes YYYY-MM-DD).
    const today = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    const overdue = api.store.get<{ n: number }>(
      'SELECT count(*) AS n FROM invoices WHERE voided_dt IS NULL AND balance_cents > 0 AND due_date < ?',
      [today],
    )!.n;
    await waitFor(() => {
      const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1).filter((row) => within(row).queryAllByRole('link').length > 0);
      expect(rows).toHaveLength(Math.min(overdue, 10));
      expect(rows.every((row) => within(row).queryByText('Overdue'))).toBe(true);
    });
  });

  it('is reached with g then i, as the navigation link says', async () => {
    const user = userEvent.setup();
    const { router } = await start('/biz/customers');
    await screen.findByRole('heading', { level: 1, name: 'Customers' });
    await user.keyboard('gi');
    await waitFor(() => expect(router.state.location.pathname).toBe('/biz/invoices'));
    expect(screen.getByRole('link', { name: 'Invoices' }).getAttribute('aria-keyshortcuts')).toBe('g i');
  });

  it('filters by age and by customer, each said in words with a way out', async () => {
    const user = userEvent.setup();
    const { router } = await start('/biz/invoices?age=90%2B');
    expect(await screen.findByText('over 90 days')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show every age' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await act(() => router.navigate('/biz/invoices?customer=1&status=void'));
    expect(await screen.findByRole('button', { name: 'Show every customer' })).toBeTruthy();
  });
});
