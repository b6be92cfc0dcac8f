// A job's life in real Chromium: created for a customer, moved from quote to paid, found by search
// and under its status tab, and seen on the customer's screen after a reload.
import { describe, expect, it } from 'vitest';
import { apiFetch, customersPath, screenshot, useBrowserSession } from './harness';

const session = useBrowserSession();

describe('jobs in Chromium', () => {
  it('creates a job for a customer and takes it from quote to paid', async () => {
    const { page } = await session.open('/biz/customers');
    const [customer] = (await apiFetch(page, customersPath({ limit: 1 }))).json as { id: string; full_name: string }[];

    await page.goto(`/biz/customers/edit/${customer!.id}`);
    await page.getByRole('link', { name: `New job for ${customer!.full_name}` }).click();
    await page.getByText(`Selected: ${customer!.full_name}`).waitFor();
    await page.getByLabel('Title').fill('Replace the garden gate');
    await page.getByLabel('Service address').fill('14 Rue des Écoles, Lyon');
    await page.getByLabel('Price').fill('425.00');
    await page.getByRole('button', { name: 'Create job' }).click();
    await page.getByText(`Job “Replace the garden gate” was created for ${customer!.full_name}.`).waitFor();
    await page.waitForURL(/\/biz\/jobs\/edit\?id=\d+$/);
    await screenshot(page, 'job-edit');

    const moves: [string, string][] = [
      ['scheduled', 'Scheduled'],
      ['in_progress', 'In progress'],
      ['completed', 'Completed'],
      ['invoiced', 'Invoiced'],
      ['paid', 'Paid'],
    ];
    for (const [value, label] of moves) {
      if (value === 'scheduled') await page.getByLabel('Scheduled start').fill('2026-12-01T09:00');
      await page.getByLabel('Status', { exact: true }).selectOption(value);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText(`Job “Replace the garden gate” was saved (${label}).`).waitFor();
      await page.getByRole('button', { name: 'Dismiss notification' }).first().click();
    }
    const offered = await page.getByLabel('Status', { exact: true }).locator('option').allTextContents();
    expect(offered).toEqual(['Paid']);

    await page.goto('/biz/jobs?status=paid');
    await page.getByRole('searchbox', { name: 'Search jobs' }).fill('garden ecoles');
    await page.getByRole('link', { name: 'Replace the garden gate' }).waitFor();
    expect(await page.getByRole('button', { name: /^Paid/ }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'job-list');

    await page.goto(`/biz/customers/edit/${customer!.id}`);
    await page.reload();
    const jobs = page.getByRole('region', { name: 'Jobs' });
    await jobs.getByRole('link', { name: 'Replace the garden gate' }).waitFor();
    expect(await jobs.getByText('Paid').count()).toBeGreaterThan(0);
    await screenshot(page, 'customer-with-jobs');
  });
});
