// What a person does with customers, in real Chromium against the production build: every route,
// search, paging, create, edit, validation, and data that is still there after a reload.
import { describe, expect, it } from 'vitest';
import { apiFetch, customersPath, screenshot, waitForBackend, useBrowserSession } from './harness';

const session = useBrowserSession({ warm: true });

const open = (path: string) => session.open(path, { waitForBackend: false });

describe('customer screens in Chromium', () => {
  it('shows the landing page with a way into the back office', async () => {
    const { page } = await open('/');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('back office');
    await screenshot(page, 'landing');
    await page.getByRole('link', { name: 'Open your back office' }).click();
    await page.getByRole('heading', { name: 'Customers' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/biz/customers');
  });

  it('redirects /biz to /biz/customers, replacing history, and renders every route', async () => {
    const tab = await open('/');
    const { page } = tab;
    // Asking for a record that does not exist is a 404 the browser reports in the console.
    tab.allow(/status of 404/);
    await page.goto('/biz');
    await page.waitForURL('**/biz/customers');
    await page.getByRole('table').waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    const routes: [string, string][] = [
      ['/biz/customers', 'Customers'],
      ['/biz/customers/new', 'New customer'],
      ['/biz/jobs', 'Jobs'],
      ['/biz/jobs/new', 'New job'],
      ['/biz/jobs/edit', 'No job chosen'],
      ['/biz/customers/edit/999999', 'Customer not found'],
      ['/biz/jobs/edit?id=999999', 'Job not found'],
    ];
    for (const [path, heading] of routes) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
  });

  it('searches as you type, pages, and keeps both in the URL across a reload and back', async () => {
    const { page } = await open('/biz/customers');
    await waitForBackend(page);
    const rows = page.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count()).toBe(11);
    await page.getByText('Page 1 of 50').waitFor();
    await screenshot(page, 'customer-list');

    await page.getByRole('button', { name: /next/i }).click();
    await page.getByText('Page 2 of 50').waitFor();
    expect(new URL(page.url()).search).toBe('?page=2');

    const first = (await apiFetch(page, customersPath({ limit: 1 }))).json as { full_name: string }[];
    const lastName = first[0]!.full_name.split(' ').at(-1)!;
    await page.getByRole('searchbox', { name: 'Search customers' }).fill(lastName.slice(0, 3));
    await page.waitForURL((url) => url.searchParams.get('q') === lastName.slice(0, 3));
    await expect.poll(() => page.getByRole('table').getByRole('link', { name: new RegExp(lastName) }).count()).toBeGreaterThan(0);
    await screenshot(page, 'customer-search');

    await page.reload();
    await expect.poll(() => page.getByRole('searchbox', { name: 'Search customers' }).inputValue()).toBe(lastName.slice(0, 3));
    // The search replaced nothing: back returns to the page the search started from.
    await page.goBack();
    await page.getByText('Page 2 of 50').waitFor();
    expect(new URL(page.url()).search).toBe('?page=2');

    await page.getByRole('searchbox', { name: 'Search customers' }).fill('qqqzzzxx');
    await page.getByText('No customers match “qqqzzzxx”').waitFor();
  });

  it('validates before sending, creates a customer, edits it, and keeps it after a reload', async () => {
    const { page } = await open('/biz/customers/new');
    await waitForBackend(page);
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada-at-example');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.getByText('Enter an email address like name@example.com, or leave it empty.').waitFor();
    await page.getByText('Enter the phone number.').waitFor();
    await screenshot(page, 'customer-new-validation');

    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Phone').fill('+44 20 7946 0000');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.getByText('Ada Lovelace was added.').waitFor();
    await page.waitForURL(/\/biz\/customers\/edit\/\d+$/);
    await page.getByRole('button', { name: 'Save changes' }).waitFor();

    await page.getByLabel('Full name').fill('Augusta Ada King');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes to Augusta Ada King were saved.').waitFor();
    await screenshot(page, 'customer-edit');

    await page.reload();
    await expect.poll(() => page.getByLabel('Full name').inputValue()).toBe('Augusta Ada King');
    await page.goto('/biz/customers?q=augusta');
    await page.getByRole('link', { name: 'Augusta Ada King' }).waitFor();
  });

  it('warns before leaving unsaved changes', async () => {
    const { page } = await open('/biz/customers/new');
    await waitForBackend(page);
    await page.getByLabel('Full name').fill('Half typed');
    await page.getByRole('link', { name: 'Back to customers' }).click();
    await page.getByRole('alertdialog', { name: 'Leave without saving?' }).waitFor();
    await page.getByRole('button', { name: 'Stay on this page' }).click();
    expect(await page.getByLabel('Full name').inputValue()).toBe('Half typed');
  });

  it('fits a phone screen', async () => {
    const { page } = await open('/biz/customers');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole('table').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'customer-list-phone');
  });
});
