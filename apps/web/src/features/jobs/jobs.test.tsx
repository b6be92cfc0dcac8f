import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeBackendHandle } from '../../test/fake-backend-handle';
import { renderApp } from '../../test/render-app';

vi.mock('../../backend/start-backend', () => ({ ensureBackend: async () => fakeBackendHandle() }));

const start = renderApp;

describe('job screens', () => {
  it('lists jobs with status tabs and their counts, the status kept in the URL', async () => {
    const user = userEvent.setup();
    const { router, api } = await start('/biz/jobs');
    const total = api.store.get<{ n: number }>('SELECT count(*) AS n FROM jobs')!.n;
    const paid = api.store.get<{ n: number }>("SELECT count(*) AS n FROM jobs WHERE status = 'paid'")!.n;
    // Some rows to check, or the every() below holds for none.
    expect(paid).toBeGreaterThan(0);
    const tabs = await screen.findByRole('group', { name: 'Filter by status' });
    await waitFor(() => expect(within(tabs).getByRole('button', { name: new RegExp(`^All.*${total}`) })).toBeTruthy());
    await user.click(within(tabs).getByRole('button', { name: new RegExp(`^Paid.*${paid}`) }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=paid'));
    await waitFor(() => {
      const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
      expect(rows.length).toBe(Math.min(paid, 10));
      expect(rows.every((row) => within(row).getByText('Paid'))).toBe(true);
    });
  });

  it('creates a job for a customer picked by typing, then moves it through its lifecycle', async () => {
    const user = userEvent.setup();
    const { router, api } = await start('/biz/jobs/new');
    const customer = api.store.get<{ id: number; full_name: string }>('SELECT id, full_name FROM customers ORDER BY id LIMIT 1')!;
    await user.type(await screen.findByRole('combobox', { name: /Customer/ }), customer.full_name.split(' ')[0]!);
    await user.click(await screen.findByRole('option', { name: new RegExp(customer.full_name) }));
    await user.type(screen.getByLabelText(/Title/), 'Replace kitchen tap');
    await user.type(screen.getByLabelText('Price'), '180.50');
    await user.click(screen.getByRole('button', { name: 'Create job' }));
    expect(await screen.findByText(`Job “Replace kitchen tap” was created for ${customer.full_name}.`)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toMatch(/^\?id=\d+$/));
    expect(api.store.get("SELECT customer_id, price_cents, status FROM jobs WHERE title = 'Replace kitchen tap'")).toEqual({
      customer_id: customer.id,
      price_cents: 18050,
      status: 'quote',
    });

    await screen.findByRole('button', { name: 'Save changes' });
    const status = screen.getByLabelText('Status');
    const offered = within(status).getAllByRole('option').map((o) => o.textContent);
    expect(offered).toEqual(['Quote', 'Scheduled', 'Cancelled']);
    await user.selectOptions(status, 'scheduled');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('A scheduled job needs a start time.')).toBeTruthy();
    await user.type(screen.getByLabelText('Scheduled start'), '2026-12-01T09:00');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Job “Replace kitchen tap” was saved (Scheduled).')).toBeTruthy();
    // A job with a time links to its day on the schedule (the browser's own day of 09:00 local).
    expect((await screen.findByRole('link', { name: 'See its day on the schedule' })).getAttribute('href')).toBe('/biz/schedule?view=day&date=2026-12-01');
    await waitFor(() =>
      expect(within(screen.getByLabelText('Status')).getAllByRole('option').map((o) => o.textContent)).toEqual([
        'Scheduled',
        'In progress',
        'Quote',
        'Cancelled',
      ]),
    );
  });

  it('asks for a scheduled end only when wanted: one button in its place, then the field with the cursor in it', async () => {
    const user = userEvent.setup();
    await start('/biz/jobs/new');
    const start_ = await screen.findByLabelText('Scheduled start');
    start_.focus();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Add a scheduled end');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Price'));
    await user.click(screen.getByRole('button', { name: 'Add a scheduled end' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Scheduled end')));
  });

  it('keeps focus on the next step after each one-click move, down to Paid', async () => {
    const user = userEvent.setup();
    const { api, router } = await start('/biz/jobs');
    const job = api.store.get<{ id: number }>("SELECT id FROM jobs WHERE status = 'in_progress' AND archived_dt IS NULL LIMIT 1")!;
    await act(() => router.navigate(`/biz/jobs/edit?id=${job.id}`));
    const moves = await screen.findByRole('group', { name: 'Move this job' });
    within(moves).getByRole('button', { name: 'Complete' }).focus();
    // Enter on each next step: the next one has focus as soon as the job has moved.
    for (const [pressed, next] of [
      ['Complete', 'Invoice'],
      ['Invoice', 'Mark paid'],
    ] as const) {
      expect(document.activeElement?.textContent).toBe(pressed);
      await user.keyboard('{Enter}');
      await waitFor(() => expect(document.activeElement?.textContent).toBe(next));
    }
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Paid jobs are final/));
  });

  it('says so in words when no job or an unknown job is asked for', async () => {
    await start('/biz/jobs/edit');
    expect(await screen.findByRole('heading', { name: 'No job chosen' })).toBeTruthy();
    await start('/biz/jobs/edit?id=99999');
    expect(await screen.findByRole('heading', { name: 'Job not found' })).toBeTruthy();
  });

  it("offers the customer's service addresses for the job's address, filling the field that stays free text", async () => {
    const user = userEvent.setup();
    const { api, router } = await start('/biz/jobs/new');
    const customer = api.store.get<{ id: number; full_name: string }>('SELECT id, full_name FROM customers ORDER BY id LIMIT 1')!;
    api.store.run('INSERT INTO customer_details (customer_id, notes, addresses_json, modified_dt) VALUES (?, ?, ?, ?)', [
      customer.id,
      '',
      JSON.stringify([
        { label: 'Home', address: '1 High Street, Leeds' },
        { label: 'Rental', address: '7 Mill Lane, York' },
      ]),
      Date.now(),
    ]);
    // No customer yet: nothing to offer.
    expect(screen.queryByLabelText(/Use one of their addresses/)).toBeNull();
    await user.type(await screen.findByRole('combobox', { name: /Customer/ }), customer.full_name.split(' ')[0]!);
    await user.click(await screen.findByRole('option', { name: new RegExp(customer.full_name) }));
    const choices = (await screen.findByLabelText(/Use one of their addresses/)) as HTMLSelectElement;
    expect(within(choices).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose an address…', 'Home — 1 High Street, Leeds', 'Rental — 7 Mill Lane, York']);
    // Two addresses: none is chosen for the person.
    const field = screen.getByLabelText(/^Service address/) as HTMLInputElement;
    expect(field.value).toBe('');
    await user.selectOptions(choices, 'Rental — 7 Mill Lane, York');
    expect(field.value).toBe('7 Mill Lane, York');
    // Still free text: typed further, it is no longer one of theirs.
    await user.type(field, ', back door');
    expect(choices.value).toBe('');
    await user.selectOptions(choices, 'Rental — 7 Mill Lane, York');
    await user.type(screen.getByLabelText(/Title/), 'Fix the boiler');
    await user.type(screen.getByLabelText('Price'), '90');
    await user.click(screen.getByRole('button', { name: 'Create job' }));
    await waitFor(() => expect(router.state.location.search).toMatch(/^\?id=\d+$/));
    expect(api.store.get("SELECT service_address FROM jobs WHERE title = 'Fix the boiler'")).toEqual({ service_address: '7 Mill Lane, York' });
    // The job's own screen offers them too, the saved address shown as chosen.
    await screen.findByRole('button', { name: 'Save changes' });
    await waitFor(() => expect((screen.getByLabelText(/Use one of their addresses/) as HTMLSelectElement).value).toBe('1'));
  });

  it('starts a new job for a customer with one service address at that address, nothing typed yet', async () => {
    const user = userEvent.setup();
    const { api, router } = await start('/biz/customers');
    api.store.run('INSERT INTO customer_details (customer_id, notes, addresses_json, modified_dt) VALUES (2, ?, ?, ?)', [
      '',
      JSON.stringify([{ label: 'Shop', address: '3 Market Row' }]),
      Date.now(),
    ]);
    await act(() => router.navigate('/biz/jobs/new?customerId=2'));
    const field = (await screen.findByLabelText(/^Service address/)) as HTMLInputElement;
    expect(field.value).toBe('3 Market Row');
    expect((screen.getByLabelText(/Use one of their addresses/) as HTMLSelectElement).value).toBe('0');
    // Filled for them, not typed by them: leaving asks nothing.
    await user.click(screen.getByRole('link', { name: /^Back to / }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/biz/customers/edit/2'));
  });

  it("shows a customer's jobs on their screen with a prefilled way to start a new one", async () => {
    const user = userEvent.setup();
    const { api, router } = await start('/biz/customers/edit/1');
    const name = api.store.get<{ full_name: string }>('SELECT full_name FROM customers WHERE id = 1')!.full_name;
    const jobs = api.store.get<{ n: number }>('SELECT count(*) AS n FROM jobs WHERE customer_id = 1')!.n;
    const section = await screen.findByRole('region', { name: 'Jobs' });
    if (jobs > 0) await waitFor(() => expect(within(section).getAllByRole('row')).toHaveLength(Math.min(jobs, 10) + 1));
    else expect(await within(section).findByText('No jobs yet')).toBeTruthy();
    await user.click(within(section).getByRole('link', { name: `New job for ${name}` }));
    await waitFor(() => expect(router.state.location.search).toBe('?customerId=1'));
    expect(await screen.findByText(`Selected: ${name}`)).toBeTruthy();
  });
});
