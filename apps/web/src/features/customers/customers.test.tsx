import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app';
import { fakeBackendHandle } from '../../test/fake-backend-handle';

vi.mock('../../backend/start-backend', () => ({ ensureBackend: async () => fakeBackendHandle() }));

const start = renderApp;
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const focusedFullName = () => document.activeElement?.id === 'customer-full_name';

describe('customer screens', () => {
  it('redirects /biz to the customer list, replacing history, and shows a page of customers', async () => {
    const { router } = await start('/biz');
    expect(await screen.findByRole('heading', { name: 'Customers' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/biz/customers');
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(screen.getByText('30 customers')).toBeTruthy();
  });

  it('searches as the user types and keeps the search and page in the URL', async () => {
    const user = userEvent.setup();
    const { router, api } = await start('/biz/customers');
    const [first] = api.store.all<{ full_name: string }>('SELECT full_name FROM customers ORDER BY id LIMIT 1');
    const lastName = first!.full_name.split(' ').at(-1)!;
    await user.type(await screen.findByRole('searchbox', { name: 'Search customers' }), lastName.slice(0, 4));
    await waitFor(() => expect(router.state.location.search).toBe(`?q=${encodeURIComponent(lastName.slice(0, 4))}`));
    await waitFor(() => expect(screen.getAllByRole('link', { name: new RegExp(lastName) }).length).toBeGreaterThan(0));
    await user.clear(screen.getByRole('searchbox'));
    await user.type(screen.getByRole('searchbox'), 'zzzzqqq');
    expect(await screen.findByText('No customers match “zzzzqqq”')).toBeTruthy();
  });

  it('opens the top match on Enter in the search box, typed fast or slow, and stays put with none (issue 36)', async () => {
    const user = userEvent.setup();
    const { router, api } = await start('/biz/customers');
    const [first] = api.store.all<{ id: number; full_name: string; email: string }>('SELECT id, full_name, email FROM customers ORDER BY id LIMIT 1');
    // Enter at once, before the list has caught up with the text: the answer to that text decides.
    await user.type(await screen.findByRole('searchbox', { name: 'Search customers' }), `${first!.email}{Enter}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/biz/customers/edit/${first!.id}`));
    await router.navigate('/biz/customers?q=zzzzqqq');
    expect(await screen.findByText('No customers match “zzzzqqq”')).toBeTruthy();
    await user.type(screen.getByRole('searchbox'), '{Enter}');
    expect(router.state.location.pathname).toBe('/biz/customers');
    expect(focusedFullName()).toBe(false);
  });

  it('starts a new customer with the cursor in Full name (issue 36)', async () => {
    await start('/biz/customers/new');
    await waitFor(() => expect(focusedFullName()).toBe(true));
  });

  it('pages with Next and Previous', async () => {
    const user = userEvent.setup();
    const { router } = await start('/biz/customers');
    await waitFor(() => expect(rows()).toHaveLength(10));
    const firstPage = rows().map((r) => r.textContent);
    await user.click(screen.getByRole('button', { name: /next/i }));
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeTruthy());
    expect(router.state.location.search).toBe('?page=2');
    await waitFor(() => expect(rows().map((r) => r.textContent)).not.toEqual(firstPage));
  });

  it('shows messages next to the fields and sends nothing when the form is invalid', async () => {
    const user = userEvent.setup();
    const { requests } = await start('/biz/customers/new');
    await user.type(await screen.findByLabelText(/Full name/), 'Ada Lovelace');
    await user.type(screen.getByLabelText(/Email/), 'ada-at-example');
    await user.click(screen.getByRole('button', { name: 'Create customer' }));
    expect(screen.getByLabelText(/Email/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter an email address like name@example.com, or leave it empty.')).toBeTruthy();
    expect(screen.getByText('Enter the phone number.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/Email/));
    expect(requests.filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it('saves a customer reached by phone only, with no email (decision 0162)', async () => {
    const user = userEvent.setup();
    const { requests } = await start('/biz/customers/new');
    await user.type(await screen.findByLabelText(/Full name/), 'Pat Phoneonly');
    expect(screen.getByText('Leave it empty for a customer you reach by phone only.')).toBeTruthy();
    await user.type(screen.getByLabelText(/Phone/), '07700 900123');
    await user.click(screen.getByRole('button', { name: 'Create customer' }));
    await waitFor(() => expect(requests.filter((r) => r.startsWith('POST'))).toHaveLength(1));
    await screen.findByRole('heading', { level: 1, name: 'Pat Phoneonly' });
    expect(screen.queryByRole('link', { name: /^Email/ })).toBeNull();
    expect(screen.getByRole('link', { name: /^Call/ })).toBeTruthy();
  });

  it('creates a customer, confirms it, and opens it', async () => {
    const user = userEvent.setup();
    const { router, api } = await start('/biz/customers/new');
    await user.type(await screen.findByLabelText(/Full name/), 'Ada Lovelace');
    await user.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/Phone/), '555 0100');
    await user.click(screen.getByRole('button', { name: 'Create customer' }));
    expect(await screen.findByText('Ada Lovelace was added.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/biz\/customers\/edit\/\d+$/));
    expect(api.store.get("SELECT email FROM customers WHERE full_name = 'Ada Lovelace'")).toEqual({ email: 'ada@example.com' });
  });

  it('edits a customer and the list shows the change', async () => {
    const user = userEvent.setup();
    const { router, api } = await start('/biz/customers/edit/1');
    const name = await screen.findByLabelText(/Full name/);
    await waitFor(() => expect((name as HTMLInputElement).value).not.toBe(''));
    // One tap away from calling or writing to them (issue 39's walkthrough).
    const { phone, email } = api.store.get<{ phone: string; email: string }>('SELECT phone, email FROM customers WHERE id = 1')!;
    expect(screen.getByRole('link', { name: `Call ${phone}` }).getAttribute('href')).toBe(`tel:${phone.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '')}`);
    expect(screen.getByRole('link', { name: `Email ${email}` }).getAttribute('href')).toBe(`mailto:${email}`);
    await user.clear(name);
    await user.type(name, 'Grace Hopper');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes to Grace Hopper were saved.')).toBeTruthy();
    expect(api.store.get('SELECT full_name FROM customers WHERE id = 1')).toEqual({ full_name: 'Grace Hopper' });
    await act(() => router.navigate('/biz/customers'));
    expect(await screen.findByRole('link', { name: 'Grace Hopper' })).toBeTruthy();
  });

  it('asks before leaving unsaved changes', async () => {
    const user = userEvent.setup();
    const { router } = await start('/biz/customers/edit/2');
    const name = await screen.findByLabelText(/Full name/);
    await waitFor(() => expect((name as HTMLInputElement).value).not.toBe(''));
    await user.type(name, ' Jr');
    await user.click(screen.getByRole('link', { name: 'Back to customers' }));
    expect(await screen.findByRole('alertdialog', { name: 'Leave without saving?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/biz/customers/edit/2');
    await user.click(screen.getByRole('link', { name: 'Back to customers' }));
    await user.click(await screen.findByRole('button', { name: 'Leave and discard changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/biz/customers'));
  });

  it('says so in words when the customer does not exist', async () => {
    await start('/biz/customers/edit/424242');
    expect(await screen.findByRole('heading', { name: 'Customer not found' })).toBeTruthy();
  });
});
