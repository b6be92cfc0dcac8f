// What the CSV import's browser tests share (import.e2e.test.ts, long/import-10000.e2e.test.ts):
// reading customers back through the API, and the import dialog's controls.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { apiFetch, customersPath, type BrowserSession, type TrackedPage } from './harness';

/** A file of e2e/fixtures/import/. */
export const fixture = (name: string) => join(fileURLToPath(new URL('./fixtures/import/', import.meta.url)), name);

export interface Customer {
  id: string;
  full_name: string;
  email: string;
  phone: string;
}

/** The customer list in a tab of `session`, once its first row is drawn. */
export async function openCustomerList(session: BrowserSession, { viewport = { width: 1280, height: 900 }, fresh = false } = {}): Promise<TrackedPage> {
  const tab = await session.open('/biz/customers', { viewport, fresh });
  await tab.page.getByRole('table').getByRole('row').nth(1).waitFor();
  return tab;
}

/** How many customers the database holds. */
export async function total(page: Page): Promise<number> {
  const res = await apiFetch(page, customersPath({ limit: 1 }));
  return Number(res.headers['x-total-count']);
}

/** The customers whose email is exactly `email` (case aside). */
export async function byEmail(page: Page, email: string): Promise<Customer[]> {
  const res = await apiFetch(page, customersPath({ queryText: email, limit: 50 }));
  return (res.json as Customer[]).filter((c) => c.email.toLowerCase() === email.toLowerCase());
}

/** Opens the import from the customer list's Import… button. */
export async function openImport(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByRole('dialog', { name: 'Import customers from CSV' }).waitFor();
}

export async function chooseFile(page: Page, path: string): Promise<void> {
  await page.getByLabel('CSV file to import').setInputFiles(path);
}

export const dialog = (page: Page) => page.getByRole('dialog');
export const resultText = (page: Page) => page.getByTestId('import-result').textContent();
