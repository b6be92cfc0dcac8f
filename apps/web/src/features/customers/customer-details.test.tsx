// A customer's notes and service addresses on their screen (decision 0162), against the real mock backend.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../lib/api-client';
import { fakeBackendHandle, fakeChangeListeners } from '../../test/fake-backend-handle';
import { renderApp } from '../../test/render-app';

vi.mock('../../backend/start-backend', () => ({ ensureBackend: async () => fakeBackendHandle() }));

const start = renderApp;
const card = () => screen.getByRole('region', { name: 'Notes and service addresses' });
const notesField = () => within(card()).getByRole('textbox', { name: /^Notes/ }) as HTMLTextAreaElement;
const address = (n: number) => within(card()).getByRole('listitem', { name: `Address ${n}` });

type Store = Awaited<ReturnType<typeof start>>['api']['store'];

/** Notes and addresses as another tab would have saved them, straight into the store (no change event). */
function saveElsewhere(store: Store, customerId: number, notes: string, addresses: { label: string; address: string }[], modified = Date.now()) {
  store.run(
    `INSERT INTO customer_details (customer_id, notes, addresses_json, modified_dt) VALUES (?, ?, ?, ?)
     ON CONFLICT (customer_id) DO UPDATE SET notes = excluded.notes, addresses_json = excluded.addresses_json, modified_dt = excluded.modified_dt`,
    [customerId, notes, JSON.stringify(addresses), modified],
  );
}

const stored = (store: Store, customerId: number) => {
  const row = store.get<{ notes: string; addresses_json: string }>('SELECT notes, addresses_json FROM customer_details WHERE customer_id = ?', [customerId]);
  return row && { notes: row.notes, addresses: JSON.parse(row.addresses_json) as unknown };
};

describe("a customer's notes and service addresses", () => {
  it('saves notes and two addresses over the version read, and shows the notes at the top', async () => {
    const user = userEvent.setup();
    const { api, requests } = await start('/biz/customers/edit/3');
    await screen.findByRole('heading', { name: 'Notes and service addresses' });
    await waitFor(() => expect(within(card()).getByRole('button', { name: 'Add an address' })).toBeTruthy());
    // No notes yet: nothing at a glance.
    expect(screen.queryByRole('region', { name: 'Notes' })).toBeNull();

    await user.type(notesField(), 'Gate code 4411. Dog in the garden.');
    await user.click(within(card()).getByRole('button', { name: 'Add an address' }));
    await waitFor(() => expect(document.activeElement).toBe(within(address(1)).getByLabelText('Label')));
    await user.type(within(address(1)).getByLabelText('Label'), 'Home');
    await user.type(within(address(1)).getByLabelText(/^Address/), '1 High Street, Leeds');
    await user.click(within(card()).getByRole('button', { name: 'Add an address' }));
    await user.type(within(address(2)).getByLabelText('Label'), 'Rental');
    await user.type(within(address(2)).getByLabelText(/^Address/), '  7 Mill Lane, York ');
    // A third added by mistake, removed again.
    await user.click(within(card()).getByRole('button', { name: 'Add an address' }));
    await user.click(within(card()).getByRole('button', { name: 'Remove address 3' }));
    expect(within(card()).getAllByRole('listitem')).toHaveLength(2);

    await user.click(within(card()).getByRole('button', { name: 'Save notes and addresses' }));
    expect(await screen.findByText(/^Notes and addresses of .+ were saved\.$/)).toBeTruthy();
    expect(requests.filter((r) => r.startsWith('PUT'))).toEqual(['PUT /api/customers/3/details']);
    expect(stored(api.store, 3)).toEqual({
      notes: 'Gate code 4411. Dog in the garden.',
      addresses: [
        { label: 'Home', address: '1 High Street, Leeds' },
        { label: 'Rental', address: '7 Mill Lane, York' },
      ],
    });
    // Shown trimmed, as saved; and the notes at a glance under the name.
    expect((within(address(2)).getByLabelText(/^Address/) as HTMLInputElement).value).toBe('7 Mill Lane, York');
    const glance = await screen.findByRole('region', { name: 'Notes' });
    expect(within(glance).getByText('Gate code 4411. Dog in the garden.')).toBeTruthy();
  });

  it('shows a rule broken as typed by its field and sends nothing', async () => {
    const user = userEvent.setup();
    const { requests } = await start('/biz/customers/edit/3');
    await user.click(await within(await screen.findByRole('region', { name: 'Notes and service addresses' })).findByRole('button', { name: 'Add an address' }));
    await user.type(within(address(1)).getByLabelText('Label'), 'Shop');
    await user.click(within(card()).getByRole('button', { name: 'Save notes and addresses' }));
    expect(within(address(1)).getByText('Enter the address, or remove this one.')).toBeTruthy();
    expect(document.activeElement).toBe(within(address(1)).getByLabelText(/^Address/));
    expect(requests.filter((r) => r.startsWith('PUT'))).toEqual([]);
  });

  it("shows a server's 400 by the field it names (addresses.1.address)", async () => {
    const user = userEvent.setup();
    const { api, router } = await start('/biz/customers');
    saveElsewhere(api.store, 3, '', [
      { label: 'Home', address: '1 High Street' },
      { label: 'Rental', address: '7 Mill Lane' },
    ]);
    // A server with a rule this build does not know: it names the second address.
    configureApiClient({
      fetch: (input, init) =>
        init?.method === 'PUT' && String(input).endsWith('/details')
          ? Promise.resolve(
              Response.json(
                { code: 'VALIDATION_FAILED', message: 'Some fields need attention.', issues: [{ path: 'addresses.1.address', message: 'We do not go to Mill Lane.' }] },
                { status: 400 },
              ),
            )
          : api.fetch(new Request(new URL(input, 'http://localhost'), init)),
    });
    await act(() => router.navigate('/biz/customers/edit/3'));
    await screen.findByRole('heading', { name: 'Notes and service addresses' });
    await waitFor(() => expect(within(card()).getAllByRole('listitem')).toHaveLength(2));
    await user.type(notesField(), 'Ring first');
    await user.click(within(card()).getByRole('button', { name: 'Save notes and addresses' }));
    expect(await within(address(2)).findByText('We do not go to Mill Lane.')).toBeTruthy();
    expect(within(address(2)).getByLabelText(/^Address/).getAttribute('aria-invalid')).toBe('true');
    expect(within(card()).getByText('Some fields need attention.')).toBeTruthy();
    expect(notesField().value).toBe('Ring first');
  });

  it('refuses to save over a version saved elsewhere (412), says so, and loads it on request', async () => {
    const user = userEvent.setup();
    const { api } = await start('/biz/customers/edit/4');
    await screen.findByRole('heading', { name: 'Notes and service addresses' });
    await waitFor(() => expect(within(card()).getByRole('button', { name: 'Add an address' })).toBeTruthy());
    // Saved in another tab after this one read them (version 0): no change event reaches this tab.
    saveElsewhere(api.store, 4, 'Their notes', [{ label: 'Office', address: '2 Quay Street' }]);
    await user.type(notesField(), 'My notes');
    await user.click(within(card()).getByRole('button', { name: 'Save notes and addresses' }));
    expect(await within(card()).findByText(/notes and addresses were changed in another tab, so your changes were not saved yet/)).toBeTruthy();
    expect(stored(api.store, 4)?.notes).toBe('Their notes');
    const notice = await within(card()).findByText('This customer was changed in another tab');
    expect(notice).toBeTruthy();
    expect(notesField().value).toBe('My notes');
    await user.click(within(card()).getByRole('button', { name: 'Load the new version' }));
    await waitFor(() => expect(notesField().value).toBe('Their notes'));
    expect((within(address(1)).getByLabelText(/^Address/) as HTMLInputElement).value).toBe('2 Quay Street');
    expect(within(card()).queryByText('This customer was changed in another tab')).toBeNull();
  });

  it('follows a save in another tab: the notes at a glance change, and the card says so', async () => {
    const { api } = await start('/biz/customers/edit/6');
    await screen.findByRole('heading', { name: 'Notes and service addresses' });
    await waitFor(() => expect(within(card()).getByRole('button', { name: 'Add an address' })).toBeTruthy());
    // Another tab saves, and its change event (a customer update naming them, as the contract says
    // PUT /customers/:id/details publishes) reaches this one. The event is sent here by hand: the
    // mock backend's handler answers no `id` and names no `changes`, so it publishes none yet.
    saveElsewhere(api.store, 6, 'Call after 5 pm', [{ label: 'Home', address: '4 Bank Street' }]);
    act(() => fakeChangeListeners.forEach((listener) => listener({ entity: 'customer', kind: 'updated', ids: ['6'] })));
    const glance = await screen.findByRole('region', { name: 'Notes' });
    expect(within(glance).getByText('Call after 5 pm')).toBeTruthy();
    expect(await within(card()).findByText('This customer was changed in another tab')).toBeTruthy();
  });

  it('shows an archived customer’s notes and addresses to read, and says why', async () => {
    const { api, router } = await start('/biz/customers');
    saveElsewhere(api.store, 5, 'Moved abroad', [{ label: 'Old house', address: '9 Elm Road' }]);
    api.store.run('UPDATE customers SET archived_dt = ? WHERE id = 5', [Date.now()]);
    await act(() => router.navigate('/biz/customers/edit/5'));
    await screen.findByRole('heading', { name: 'Notes and service addresses' });
    expect(await within(card()).findByText(/is archived: restore them to change their notes or service addresses\./)).toBeTruthy();
    expect(within(card()).getByText('Old house — 9 Elm Road')).toBeTruthy();
    expect(within(card()).queryByRole('textbox')).toBeNull();
    expect(within(card()).queryByRole('button', { name: 'Save notes and addresses' })).toBeNull();
  });
});
