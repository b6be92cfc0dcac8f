import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeBackendHandle } from '../../test/fake-backend-handle';
import { renderApp } from '../../test/render-app';

vi.mock('../../backend/start-backend', () => ({ ensureBackend: async () => fakeBackendHandle() }));

describe('Delete for good', () => {
  it('tells that a customer who still has jobs cannot be deleted, instead of offering it', async () => {
    const user = userEvent.setup();
    const { api } = await renderApp('/biz/customers');
    const customer = api.store.get<{ id: number; full_name: string; n: number }>(
      'SELECT c.id, c.full_name, count(j.id) AS n FROM customers c JOIN jobs j ON j.customer_id = c.id GROUP BY c.id ORDER BY c.id LIMIT 1',
    )!;
    // One of their jobs archived too: it still counts.
    const job = api.store.get<{ id: number }>('SELECT id FROM jobs WHERE customer_id = ? LIMIT 1', [customer.id])!;
    expect((await api.fetch(new Request(`http://localhost/api/jobs/${job.id}/archive`, { method: 'POST' }))).status).toBe(200);
    expect((await api.fetch(new Request(`http://localhost/api/customers/${customer.id}/archive`, { method: 'POST' }))).status).toBe(200);

    await user.click(await screen.findByRole('link', { name: 'Archived' }));
    const table = await screen.findByRole('table', { name: /Archived customers/ });
    const row = await within(table).findByRole('row', { name: new RegExp(customer.full_name) });
    await user.click(within(row).getByRole('button', { name: `Delete for good… ${customer.full_name}` }));

    const dialog = await screen.findByRole('alertdialog', { name: `${customer.full_name} cannot be deleted yet` });
    const jobs = customer.n === 1 ? '1 job (archived)' : `${customer.n} jobs (1 of them archived)`;
    expect(dialog.textContent).toContain(`${customer.full_name} still has ${jobs}.`);
    expect(within(dialog).queryByRole('button', { name: 'Delete for good' })).toBeNull();
    const link = within(dialog).getByRole('link', { name: customer.n === 1 ? 'Show the archived jobs' : 'Show their jobs' });
    expect(link.getAttribute('href')).toBe(customer.n === 1 ? '/biz/archived' : `/biz/customers/edit/${customer.id}`);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.store.get('SELECT id FROM customers WHERE id = ?', [customer.id])).toBeTruthy();
  });

  it('deletes a customer without jobs after the confirmation', async () => {
    const user = userEvent.setup();
    const { api } = await renderApp('/biz/archived');
    const created = await api.fetch(
      new Request('http://localhost/api/customers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ full_name: 'Nora Nojobs', email: 'nora.nojobs@example.com', phone: '555 0100' }),
      }),
    );
    const data = (await created.json()) as { id: string };
    expect((await api.fetch(new Request(`http://localhost/api/customers/${data.id}/archive`, { method: 'POST' }))).status).toBe(200);

    const row = await screen.findByRole('row', { name: /Nora Nojobs/ });
    await user.click(within(row).getByRole('button', { name: 'Delete for good… Nora Nojobs' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Nora Nojobs for good?' });
    const remove = within(dialog).getByRole('button', { name: 'Delete for good' });
    await waitFor(() => expect((remove as HTMLButtonElement).disabled).toBe(false));
    await user.click(remove);
    expect(await screen.findByText('Nora Nojobs was deleted for good.')).toBeTruthy();
    expect(api.store.get('SELECT id FROM customers WHERE id = ?', [Number(data.id)])).toBeUndefined();
  });
});
