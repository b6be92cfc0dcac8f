// The customer as a record (decision 0162), in real Chromium against the production build: notes and
// service addresses saved and still there after a reload, one of them chosen for a new job, and the
// customer's screen at a desktop's and a phone's width.
import { describe, expect, it } from 'vitest';
import { apiFetch, customersPath, screenshot, useBrowserSession } from './harness';

const session = useBrowserSession();

describe("a customer's notes and service addresses in Chromium", () => {
  it('saves notes and two addresses, keeps them after a reload, and a new job takes the second', async () => {
    const { page } = await session.open('/biz/customers', { viewport: { width: 1280, height: 900 } });
    const [customer] = (await apiFetch(page, customersPath({ limit: 1 }))).json as { id: string; full_name: string }[];
    await page.goto(`/biz/customers/edit/${customer!.id}`);
    const card = page.getByRole('region', { name: 'Notes and service addresses' });
    await card.getByRole('button', { name: 'Add an address' }).waitFor();

    await card.getByRole('textbox', { name: 'Notes' }).fill('Gate code 4411.\nDog in the garden: ring before going round the back.');
    await card.getByRole('button', { name: 'Add an address' }).click();
    const first = card.getByRole('listitem', { name: 'Address 1' });
    await first.getByLabel('Label').fill('Home');
    await first.getByRole('textbox', { name: 'Address' }).fill('1 High Street, Leeds LS1 4AB');
    await card.getByRole('button', { name: 'Add an address' }).click();
    const second = card.getByRole('listitem', { name: 'Address 2' });
    await second.getByLabel('Label').fill('Rental');
    await second.getByRole('textbox', { name: 'Address' }).fill('7 Mill Lane, York YO1 7HH');
    await card.getByRole('button', { name: 'Save notes and addresses' }).click();
    await page.getByText(`Notes and addresses of ${customer!.full_name} were saved.`).waitFor();

    await page.reload();
    await page.getByRole('region', { name: 'Notes', exact: true }).getByText(/Gate code 4411\./).waitFor();
    await expect.poll(() => card.getByRole('textbox', { name: 'Notes' }).inputValue()).toBe('Gate code 4411.\nDog in the garden: ring before going round the back.');
    await expect.poll(() => second.getByRole('textbox', { name: 'Address' }).inputValue()).toBe('7 Mill Lane, York YO1 7HH');
    expect(await first.getByLabel('Label').inputValue()).toBe('Home');
    const details = (await apiFetch(page, `/api/customers/${customer!.id}/details`)).json as { notes: string; addresses: unknown[] };
    expect(details.addresses).toEqual([
      { label: 'Home', address: '1 High Street, Leeds LS1 4AB' },
      { label: 'Rental', address: '7 Mill Lane, York YO1 7HH' },
    ]);
    await screenshot(page, 'customer-record-1280');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await card.getByRole('listitem', { name: 'Address 2' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'customer-record-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // A new job for them, from their screen, at the Rental.
    await page.getByRole('link', { name: `New job for ${customer!.full_name}` }).click();
    await page.getByRole('heading', { name: 'New job' }).waitFor();
    const choices = page.getByLabel('Use one of their addresses');
    await choices.selectOption({ label: 'Rental — 7 Mill Lane, York YO1 7HH' });
    expect(await page.getByLabel('Service address').inputValue()).toBe('7 Mill Lane, York YO1 7HH');
    await page.getByLabel('Title').fill('Service the boiler');
    await page.getByLabel('Price').fill('95');
    await page.getByRole('button', { name: 'Create job' }).click();
    await page.waitForURL(/\/biz\/jobs\/edit\?id=\d+$/);
    const jobId = new URL(page.url()).searchParams.get('id')!;
    const job = (await apiFetch(page, `/api/jobs/${jobId}`)).json as { customer_id: string; service_address: string };
    expect(job).toMatchObject({ customer_id: customer!.id, service_address: '7 Mill Lane, York YO1 7HH' });
  });
});
