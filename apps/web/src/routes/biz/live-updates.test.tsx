import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeBackendHandle } from '../../test/fake-backend-handle';
import { renderApp } from '../../test/render-app';

vi.mock('../../backend/start-backend', () => ({ ensureBackend: async () => fakeBackendHandle() }));

/**
 * A write made elsewhere (another tab): straight to the mock API, never through this app. No pause
 * first: its version comes from the database (decision 0120), later than the one the form loaded
 * even in the same millisecond.
 */
async function saveElsewhere(api: Awaited<ReturnType<typeof renderApp>>['api'], id: string, fields: Record<string, string>) {
  const res = await api.fetch(
    new Request(`http://localhost/api/customers/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) }),
  );
  expect(res.status).toBe(200);
}

async function openEditForm(path: string) {
  const view = await renderApp(path);
  const name = (await screen.findByLabelText(/Full name/)) as HTMLInputElement;
  await waitFor(() => expect(name.value).not.toBe(''));
  const row = view.api.store.get<{ email: string; phone: string }>('SELECT email, phone FROM customers WHERE id = 1') as { email: string; phone: string };
  return { ...view, name, row };
}

describe('live updates from other tabs', () => {
  it('shows a customer renamed elsewhere in the list, with no focus and no navigation', async () => {
    const { api } = await renderApp('/biz/customers');
    const first = within(await screen.findByRole('table')).getAllByRole('row')[1] as HTMLElement;
    const link = within(within(first).getByRole('rowheader')).getByRole('link');
    const id = new URL((link as HTMLAnchorElement).href).pathname.split('/').pop() as string;
    const row = api.store.get<{ email: string; phone: string }>('SELECT email, phone FROM customers WHERE id = ?', [Number(id)]) as { email: string; phone: string };
    await saveElsewhere(api, id, { full_name: 'Renamed In Another Tab', ...row });
    expect(await screen.findByRole('link', { name: 'Renamed In Another Tab' })).toBeTruthy();
  });

  it('says so when the customer in the form was saved elsewhere; keeping on editing saves over it', async () => {
    const user = userEvent.setup();
    const { api, name, row } = await openEditForm('/biz/customers/edit/1');
    await user.clear(name);
    await user.type(name, 'Mine Typed Here');
    await saveElsewhere(api, '1', { full_name: 'Theirs Saved There', ...row });
    expect(await screen.findByText('This customer was changed in another tab')).toBeTruthy();
    expect(name.value).toBe('Mine Typed Here');
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByText('This customer was changed in another tab')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes to Mine Typed Here were saved.')).toBeTruthy();
    expect(api.store.get('SELECT full_name FROM customers WHERE id = 1')).toEqual({ full_name: 'Mine Typed Here' });
    expect(screen.queryByText('This customer was changed in another tab')).toBeNull();
  });

  it('keeps a field changed only elsewhere when the user keeps editing, so their save does not undo it', async () => {
    const user = userEvent.setup();
    const { api, name, row } = await openEditForm('/biz/customers/edit/1');
    const loaded = name.value;
    await user.clear(name);
    await user.type(name, 'Mine Typed Here');
    await saveElsewhere(api, '1', { full_name: loaded, email: row.email, phone: '+44 7700 900456' });
    expect(await screen.findByText('This customer was changed in another tab')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    // The phone, untouched here, takes its new value; the name typed here stays.
    await waitFor(() => expect((screen.getByLabelText(/Phone/) as HTMLInputElement).value).toBe('+44 7700 900456'));
    expect(name.value).toBe('Mine Typed Here');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes to Mine Typed Here were saved.')).toBeTruthy();
    expect(api.store.get('SELECT full_name, phone FROM customers WHERE id = 1')).toEqual({ full_name: 'Mine Typed Here', phone: '+44 7700 900456' });
  });

  it('loads the new version into the form when asked', async () => {
    const user = userEvent.setup();
    const { api, name, row } = await openEditForm('/biz/customers/edit/1');
    await user.type(name, ' typed');
    await saveElsewhere(api, '1', { full_name: 'Theirs Saved There', ...row });
    await user.click(await screen.findByRole('button', { name: 'Load the new version' }));
    await waitFor(() => expect((screen.getByLabelText(/Full name/) as HTMLInputElement).value).toBe('Theirs Saved There'));
    expect(screen.queryByText('This customer was changed in another tab')).toBeNull();
  });

  it('does not flag a save made in this tab', async () => {
    const user = userEvent.setup();
    const { name } = await openEditForm('/biz/customers/edit/1');
    await user.clear(name);
    await user.type(name, 'Saved Right Here');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes to Saved Right Here were saved.')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('This customer was changed in another tab')).toBeNull();
  });

  it('never saves over a change it has not shown: the save is refused (412) and the notice appears', async () => {
    const user = userEvent.setup();
    const { api, name } = await openEditForm('/biz/customers/edit/1');
    await user.clear(name);
    await user.type(name, 'Mine Typed Here');
    // A change the feed did not report (as if its event were still on the way), with the next
    // version the database gives (decision 0120).
    api.store.run("UPDATE customers SET full_name = 'Silent Change', modified_dt = (SELECT last + 1 FROM version_stamp) WHERE id = 1");
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/This customer was changed in another tab, so your changes were not saved yet/)).toBeTruthy();
    expect(await screen.findByText('This customer was changed in another tab')).toBeTruthy();
    expect(api.store.get('SELECT full_name FROM customers WHERE id = 1')).toEqual({ full_name: 'Silent Change' });
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes to Mine Typed Here were saved.')).toBeTruthy();
  });

  it('says so when the job in the form was saved elsewhere, and loads its new version', async () => {
    const user = userEvent.setup();
    const { api } = await renderApp('/biz/jobs/edit?id=1');
    const title = (await screen.findByLabelText(/Title/)) as HTMLInputElement;
    await waitFor(() => expect(title.value).not.toBe(''));
    await user.type(title, ' (mine)');
    const res = await api.fetch(
      new Request('http://localhost/api/jobs/1', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Retitled In Another Tab' }) }),
    );
    expect(res.status).toBe(200);
    expect(await screen.findByText('This job was changed in another tab')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Retitled In Another Tab' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Load the new version' }));
    await waitFor(() => expect((screen.getByLabelText(/Title/) as HTMLInputElement).value).toBe('Retitled In Another Tab'));
    expect(screen.queryByText('This job was changed in another tab')).toBeNull();
  });
});
