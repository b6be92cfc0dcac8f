// Issue 18, problems 4-9, in real Chromium against the production build: toasts that cover no
// control, "Back to …" that keeps the list's place, sortable lists with a page size, focus after
// actions, no sideways scroll on a phone's Jobs page, and a CSV export in local ISO times.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiFetch, customersPath, screenshot, useBrowserSession } from './harness';

const session = useBrowserSession({ warm: true });

const desktop = { width: 1280, height: 720 };
const phone = { width: 375, height: 740 };

async function open(path: string, viewport = desktop, timezoneId?: string, locale?: string): Promise<Page> {
  const tab = await session.open(path, { viewport, ...(timezoneId ? { timezoneId } : {}), ...(locale ? { locale } : {}) });
  return tab.page;
}

interface Customer {
  id: string;
  full_name: string;
}

async function someCustomer(page: Page): Promise<Customer> {
  const [customer] = (await apiFetch(page, customersPath({ limit: 1 }))).json as Customer[];
  return customer!;
}

/** True when a click at the middle of `target` lands on it (nothing drawn over it). */
async function reachable(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim()}` : 'none';
  });

describe('toasts (issue 18, problem 4)', () => {
  for (const viewport of [desktop, phone]) {
    it(`keep one per kind and never cover the pager at ${viewport.width} px`, async () => {
      const page = await open('/biz/customers', viewport);
      const customer = await someCustomer(page);
      await page.goto(`/biz/customers/edit/${customer.id}`);
      const name = page.getByLabel('Full name');
      await expect.poll(() => name.inputValue()).toBe(customer.full_name);
      for (const suffix of [' A', ' B', ' C']) {
        await name.fill(`${customer.full_name}${suffix}`);
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.getByText(`Changes to ${customer.full_name}${suffix} were saved.`).waitFor();
      }
      // Three saves, one toast: each replaced the one before; read politely as a status.
      await expect.poll(() => page.locator('.otto-toast').count()).toBe(1);
      expect(await page.getByRole('status').filter({ hasText: 'were saved' }).count()).toBe(1);

      await page.getByRole('link', { name: 'Back to customers' }).click();
      const next = page.getByRole('button', { name: 'Next' });
      await next.waitFor();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => reachable(next)).toBe(true);
      await expect.poll(() => reachable(page.getByRole('button', { name: 'Previous' }))).toBe(true);
      // The toast is still there while the pager is reachable.
      expect(await page.locator('.otto-toast').count()).toBe(1);
      await screenshot(page, `toast-clear-of-pager-${viewport.width}`);
      await next.click();
      await page.getByText('Page 2 of').waitFor();
    });
  }
});

describe('back to the list (issue 18, problem 5)', () => {
  it('returns to the same customer search and page', async () => {
    const page = await open('/biz/customers');
    await page.getByRole('searchbox', { name: 'Search customers' }).fill('a');
    await page.waitForURL((url) => url.searchParams.get('q') === 'a');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    const listUrl = new URL(page.url());
    await page.getByRole('table').getByRole('link').first().click();
    await page.waitForURL(/\/biz\/customers\/edit\//);
    await page.getByRole('link', { name: 'Back to customers' }).click();
    await page.waitForURL((url) => url.pathname === '/biz/customers');
    expect(new URL(page.url()).search).toBe(listUrl.search);
    await expect.poll(() => page.getByRole('searchbox', { name: 'Search customers' }).inputValue()).toBe('a');
    await page.getByText('Page 2 of').waitFor();
  });

  it('returns to the same job tab, search and page', async () => {
    const page = await open('/biz/jobs?status=quote&page=2');
    await page.getByText('Page 2 of').waitFor();
    const listSearch = new URL(page.url()).search;
    await page.getByRole('table').getByRole('row').nth(1).getByRole('link').first().click();
    await page.waitForURL(/\/biz\/jobs\/edit\?id=/);
    await page.getByRole('link', { name: 'Back to jobs' }).click();
    await page.waitForURL((url) => url.pathname === '/biz/jobs');
    expect(new URL(page.url()).search).toBe(listSearch);
    await page.getByText('Page 2 of').waitFor();
  });
});

const cellTexts = (page: Page, column: number) =>
  page.getByRole('table').locator('tbody tr').evaluateAll((rows, i) => rows.map((row) => (row.children[i] as HTMLElement | undefined)?.innerText.trim() ?? ''), column);
const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase(), 'en');
const money = (text: string) => Number(text.replace(/[^\d.]/g, ''));

describe('sorting, page size, times and currency (issue 18, problem 6)', () => {
  it('sorts customers by a column header, both ways, with a page size, all kept in the URL', async () => {
    const page = await open('/biz/customers');
    await page.getByText('Page 1 of 50').waitFor();
    const modified = page.getByRole('columnheader', { name: 'Last modified' });
    expect(await modified.getAttribute('aria-sort')).toBe('descending');

    await page.getByRole('button', { name: 'Name' }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'full_name');
    await expect.poll(() => page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(async () => { const n = await cellTexts(page, 0); return n.length === 10 && n.join('|') === [...n].sort(byName).join('|'); }).toBe(true);
    expect(await page.getByLabel('Order').locator('option:checked').textContent()).toBe('Name, A to Z');
    const first = (await cellTexts(page, 0))[0];

    await page.getByRole('button', { name: 'Name' }).click();
    await page.waitForURL((url) => url.searchParams.get('order') === 'desc');
    await expect.poll(() => page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => { const n = await cellTexts(page, 0); return n.join('|') === [...n].sort(byName).reverse().join('|') && n[0] !== first; }).toBe(true);

    await page.getByLabel('Customers per page').selectOption('25');
    await page.waitForURL((url) => url.searchParams.get('size') === '25');
    await expect.poll(() => page.getByRole('table').locator('tbody tr').count()).toBe(25);
    await page.getByText('Page 1 of 20').waitFor();
    await page.reload();
    await page.getByText('Page 1 of 20').waitFor();
    expect(await page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
    await screenshot(page, 'customers-sorted-1280');
    await page.setViewportSize(phone);
    await page.getByText('Page 1 of 20').waitFor();
    await screenshot(page, 'customers-sorted-375');

    // Values the list does not offer are ignored: the default order and page size. (At desktop
    // width: phone cards have no column headers to read the order from.)
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/biz/customers?sort=phone&order=sideways&size=7');
    await page.getByText('Page 1 of 50').waitFor();
    expect(await page.getByRole('table').locator('tbody tr').count()).toBe(10);
    expect(await page.getByRole('columnheader', { name: 'Last modified' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('states the jobs order, sorts by price, shows scheduled times and prices in the chosen currency', async () => {
    const page = await open('/biz/jobs', desktop, 'Europe/London', 'en-GB');
    await page.getByText(/Page 1 of/).waitFor();
    expect(await page.getByLabel('Order').locator('option:checked').textContent()).toBe('Most recently changed first');
    // The browser's locale (en-GB) chose pounds.
    await expect.poll(async () => (await cellTexts(page, 4)).every((p) => p.startsWith('£'))).toBe(true);

    await page.getByLabel('Order').selectOption({ label: 'Price, highest first' });
    await page.waitForURL((url) => url.searchParams.get('sort') === 'price_cents');
    await expect.poll(() => page.getByRole('columnheader', { name: 'Price' }).getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => { const p = (await cellTexts(page, 4)).map(money); return p.length === 10 && p.every((v, i) => i === 0 || p[i - 1]! >= v); }).toBe(true);

    await page.getByRole('columnheader', { name: 'Scheduled' }).getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'scheduled_start_dt');
    // The address changes first; the select follows on the next render.
    await expect.poll(() => page.getByLabel('Order').locator('option:checked').textContent()).toBe('Scheduled, soonest first');
    await expect.poll(async () => (await cellTexts(page, 3)).every((s) => /\d{1,2}:\d{2}/.test(s))).toBe(true);
    await screenshot(page, 'jobs-sorted-1280');

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(await page.getByLabel('Currency').inputValue()).toBe('GBP');
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByText('Prices are now shown in EUR.').waitFor();
    await screenshot(page, 'settings-1280');
    await page.setViewportSize(phone);
    await screenshot(page, 'settings-375');
    // On a phone the navigation is behind a menu button; the address is enough here.
    await page.goto('/biz/jobs');
    await page.getByText(/Page 1 of/).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await expect.poll(async () => (await cellTexts(page, 4)).every((p) => p.startsWith('€'))).toBe(true);
    await page.reload();
    await page.getByText(/Page 1 of/).waitFor();
    await expect.poll(async () => (await cellTexts(page, 4)).every((p) => p.startsWith('€'))).toBe(true);
    await page.goto('/biz/jobs?sort=price_cents&order=asc');
    await page.getByText(/Page 1 of/).waitFor();
    await screenshot(page, 'jobs-sorted-375');
  });
});

describe('focus after actions (issue 18, problem 7)', () => {
  it('starts on the customer heading, stays on Save, and comes back after the unsaved-changes dialog', async () => {
    const page = await open('/biz/customers');
    const customer = await someCustomer(page);
    await page.getByRole('link', { name: customer.full_name, exact: true }).first().click();
    await expect.poll(() => focused(page)).toBe(`h1:${customer.full_name}`);

    await page.getByLabel('Phone').fill('+44 20 7946 0000');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(`Changes to ${customer.full_name} were saved.`).waitFor();
    await expect.poll(() => focused(page)).toBe('button:Save changes');

    await page.getByLabel('Phone').fill('+44 20 7946 0001');
    await page.getByRole('link', { name: 'Back to customers' }).click();
    await page.getByRole('alertdialog', { name: 'Leave without saving?' }).waitFor();
    await page.getByRole('button', { name: 'Stay on this page' }).click();
    await expect.poll(() => focused(page)).toBe('a:Back to customers');
  });

  it('stays on Save in the job form', async () => {
    const page = await open('/biz/jobs');
    await page.getByRole('table').getByRole('row').nth(1).getByRole('link').first().click();
    await page.waitForURL(/\/biz\/jobs\/edit\?id=/);
    await expect.poll(() => focused(page)).toMatch(/^h1:/);
    await page.getByLabel('Assigned to').fill('Sam');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/^Job “.*” was saved/).waitFor();
    await expect.poll(() => focused(page)).toBe('button:Save changes');
  });

  it('goes back to Download and Export in the backup dialog, and Escape still closes it', async () => {
    const page = await open('/biz/customers');
    for (const action of ['Download a backup', 'Export customers (CSV)']) {
      await page.getByRole('button', { name: 'Backup and export' }).click();
      const dialog = page.getByRole('dialog', { name: 'Backup and export' });
      await dialog.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: action }).click()]);
      await download.path();
      await expect.poll(() => focused(page)).toBe(`button:${action}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => focused(page)).toBe('button:Backup and export');
    }
  });
});

describe('the Jobs page on a phone (issue 18, problem 8)', () => {
  it('does not scroll sideways, every status tab is in view, and a row’s Move menu opens inside the screen', async () => {
    const page = await open('/biz/jobs', phone);
    await page.getByRole('table').getByRole('row').nth(1).waitFor();
    await page.getByText(/Page 1 of/).waitFor();
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.view);
    const tabs = page.getByRole('group', { name: 'Filter by status' }).getByRole('button');
    expect(await tabs.count()).toBe(8);
    for (const box of await tabs.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(widths.view);
    }
    await screenshot(page, 'jobs-phone-375');

    // A row's Move menu opens inside the screen, every item in reach (issue 36: it started at -75 px).
    await page.getByRole('button', { name: /^Move “/ }).first().click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const box = await menu.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    expect(box.left, 'the menu’s left edge').toBeGreaterThanOrEqual(0);
    expect(box.right, 'the menu’s right edge').toBeLessThanOrEqual(widths.view);
    expect(box.bottom, 'the menu’s bottom edge').toBeLessThanOrEqual(await page.evaluate(() => window.innerHeight));
    await screenshot(page, 'jobs-phone-375-move-menu');
    await page.keyboard.press('Escape');

    // The tabs keep their places while their counts load (in WebKit a click meant for Paid landed
    // on Completed as the counts arrived): each count's room does not depend on its digits.
    const places = () => tabs.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().left)));
    const withCounts = await places();
    await page.evaluate(() => document.querySelectorAll('.otto-segmented__count').forEach((el) => el.replaceChildren()));
    expect(await places()).toEqual(withCounts);
  });
});

describe('CSV export (issue 18, problem 9)', () => {
  it('writes local times in ISO order, keeps the formula guard, and starts with a byte-order mark for Excel', async () => {
    const page = await open('/biz/customers', desktop, 'America/New_York');
    const created = await apiFetch(page, '/api/customers', {
      method: 'POST',
      body: { full_name: 'Csv Local Time', email: 'csv.local@example.com', phone: '+44 20 7946 0958' },
    });
    const customer = created.json as Customer;
    const job = await apiFetch(page, '/api/jobs', {
      method: 'POST',
      body: {
        customer_id: customer.id,
        title: 'Csv local job',
        status: 'scheduled',
        scheduled_start_dt: Date.parse('2026-12-01T13:00:00Z'),
        scheduled_end_dt: Date.parse('2026-12-01T15:30:00Z'),
      },
    });
    expect(job.status).toBe(200);

    await page.getByRole('button', { name: 'Backup and export' }).click();
    const [jobsFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export jobs (CSV)' }).click()]);
    const jobsCsv = readFileSync((await jobsFile.path())!, 'utf8');
    const line = jobsCsv.split('\r\n').find((l) => l.includes('Csv local job'))!;
    // 13:00 UTC is 08:00 in New York in December.
    expect(line).toContain('"2026-12-01 08:00","2026-12-01 10:30"');
    expect(jobsCsv).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/);
    expect(jobsCsv).toMatch(/"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"\r\n/);

    const [customersFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export customers (CSV)' }).click(),
    ]);
    const customersCsv = readFileSync((await customersFile.path())!, 'utf8');
    const row = customersCsv.split('\r\n').find((l) => l.includes('Csv Local Time'))!;
    expect(row).toContain(`"'+44 20 7946 0958"`);
    expect(row).toMatch(/"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d","\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"$/);
    // A UTF-8 byte-order mark first, so that Excel on Windows reads "Siobhán" as written (issue 36).
    // Invoices and their payments (the seeded invoiced and paid jobs have them), money in the main unit.
    const [invoicesFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export invoices (CSV)' }).click()]);
    const invoicesCsv = readFileSync((await invoicesFile.path())!, 'utf8');
    expect(invoicesCsv.split('\r\n')[0]).toContain('"reference","customer_id","customer","status","issue_date","due_date","subtotal"');
    expect(invoicesCsv).toMatch(/"INV-\d{4}",/);
    expect(invoicesCsv).toMatch(/"paid","\d{4}-\d\d-\d\d","\d{4}-\d\d-\d\d","\d+\.\d\d"/);
    const [paymentsFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export payments (CSV)' }).click()]);
    expect(readFileSync((await paymentsFile.path())!, 'utf8').split('\r\n')[0]).toContain('"invoice_id","reference","paid_on","amount","method","note"');
    for (const file of [jobsFile, customersFile, invoicesFile, paymentsFile]) expect([...readFileSync((await file.path())!).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });
});
