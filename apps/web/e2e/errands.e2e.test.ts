// Issue 18, problems 1-3, in real Chromium against the production build: a phone number typed
// without its punctuation finds the customer; archive with Undo, the Archived view, delete for good,
// and the duplicate warning; one-click job status moves with Undo (out of paid too), on the job
// screen and from a row's menu in the job list.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiFetch, screenshot, type TrackedPage, useBrowserSession } from './harness';

const session = useBrowserSession({ warm: true });
let tab: TrackedPage | undefined;

const desktop = { width: 1280, height: 720 };
const phone = { width: 375, height: 740 };

async function open(path: string): Promise<Page> {
  tab = await session.open(path, { viewport: desktop });
  return tab.page;
}

/** Screenshots of what is on screen now, at desktop and phone width. */
async function bothWidths(page: Page, name: string, ready: () => Promise<unknown>) {
  for (const viewport of [desktop, phone]) {
    await page.setViewportSize(viewport);
    await ready();
    await screenshot(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize(desktop);
}

interface Customer {
  id: string;
  full_name: string;
  email: string;
  phone: string;
}
interface Job {
  id: string;
  title: string;
  status: string;
  modified_dt: number;
}

async function createCustomer(page: Page, fields: Omit<Customer, 'id'>): Promise<Customer> {
  const res = await apiFetch(page, '/api/customers', { method: 'POST', body: fields });
  expect(res.status).toBe(200);
  return res.json as Customer;
}

const unique = () => Math.random().toString(36).slice(2, 8);

describe('issue 18 problem 1: a phone number typed any way finds the customer', () => {
  it('finds the customer from digits typed without punctuation, with dashes, dots, brackets or a +', async () => {
    const page = await open('/biz/customers');
    // Seven random digits, so no seeded phone holds the same run.
    const tail = String(Math.floor(1_000_000 + Math.random() * 8_999_999));
    const dana = await createCustomer(page, {
      full_name: `Dana Plumber ${unique()}`,
      email: `dana.${unique()}@example.com`,
      phone: `1-836-${tail.slice(0, 3)}-${tail.slice(3)}`,
    });
    const search = page.getByRole('searchbox', { name: 'Search customers' });
    const digits = `1836${tail}`;
    for (const typed of [digits.slice(0, 10), digits, `+1 (836) ${tail.slice(0, 3)} ${tail.slice(3)}`, `836.${tail.slice(0, 3)}.${tail.slice(3)}`, tail.slice(1)]) {
      await search.fill(typed);
      await page.getByRole('link', { name: dana.full_name }).waitFor({ timeout: 30_000 });
    }
    await search.fill(digits.slice(0, 10));
    await page.getByText('1 customer', { exact: true }).waitFor();
    await bothWidths(page, 'errands-phone-search', () => page.getByRole('link', { name: dana.full_name }).waitFor());
  });
});

describe('issue 18 problem 2: archive with Undo, the Archived view, delete for good, duplicate warning', () => {
  it('archives a customer with Undo, lists them under Archived, and deletes them for good after a confirmation', async () => {
    const page = await open('/biz/customers');
    const name = `Archie Mistake ${unique()}`;
    const archie = await createCustomer(page, { full_name: name, email: `archie.${unique()}@example.com`, phone: '555 0142' });
    await page.goto(`/biz/customers/edit/${archie.id}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByText(`${name} was archived. Their jobs are kept.`).waitFor();
    await page.waitForURL(/\/biz\/customers(\?|$)/);
    const search = page.getByRole('searchbox', { name: 'Search customers' });
    await search.fill(name);
    await page.getByText(`No customers match “${name}”`).waitFor();

    // Undo in the toast puts them back.
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText(`${name} is back.`).waitFor();
    await page.getByRole('link', { name }).waitFor();

    // Archived again, they are in the Archived view, from where they go for good.
    await page.goto(`/biz/customers/edit/${archie.id}`);
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByText(`${name} was archived. Their jobs are kept.`).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Archived' }).first().click();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.waitFor();
    await bothWidths(page, 'errands-archived', () => row.waitFor());
    await page.getByRole('button', { name: `Delete for good… ${name}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete ${name} for good?` });
    await dialog.waitFor();
    await screenshot(page, 'errands-delete-for-good-1280');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByText(`${name} was deleted for good.`).waitFor();
    await row.waitFor({ state: 'detached' });
    tab?.allow(/status of 404/);
    expect((await apiFetch(page, `/api/customers/${archie.id}`)).status).toBe(404);
  });

  it('warns before creating a customer whose email someone already has, and creates anyway when asked', async () => {
    const page = await open('/biz/customers');
    const email = `dana.${unique()}@example.com`;
    const first = await createCustomer(page, { full_name: `Dana Plumber ${unique()}`, email, phone: '555 0177' });
    await page.goto('/biz/customers/new');
    await page.getByLabel('Full name').fill('Dana Plumber');
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByLabel('Phone').fill('555 0199');
    await page.getByRole('button', { name: 'Create customer' }).click();
    const warning = page.getByText(`${first.full_name} already has this email: open them, or create anyway.`);
    await warning.waitFor();
    // Nothing was created yet: one customer has that email.
    const same = await apiFetch(page, `/api/customers/duplicates?filterJson=${encodeURIComponent(JSON.stringify({ email }))}`);
    expect(same.json).toHaveLength(1);
    await bothWidths(page, 'errands-duplicate-warning', () => warning.waitFor());
    expect(await page.getByRole('link', { name: 'open them' }).getAttribute('href')).toBe(`/biz/customers/edit/${first.id}`);
    await page.getByRole('button', { name: 'Create anyway' }).click();
    await page.getByText('Dana Plumber was added.').waitFor();
    await page.waitForURL(/\/biz\/customers\/edit\/\d+$/);
    expect(page.url()).not.toContain(`/edit/${first.id}`);
  });
});

describe('issue 18 problem 3: one-click status moves with Undo', () => {
  it('moves a job from quote to paid with one click each, asks only for a start when scheduling, and undoes Mark paid', async () => {
    const page = await open('/biz/jobs');
    const owner = await createCustomer(page, { full_name: `Mover ${unique()}`, email: `mover.${unique()}@example.com`, phone: '555 0123' });
    const title = `Fix the boiler ${unique()}`;
    const created = await apiFetch(page, '/api/jobs', { method: 'POST', body: { customer_id: owner.id, title, price_cents: 12_500 } });
    const job = created.json as Job;
    await page.goto(`/biz/jobs/edit?id=${job.id}`);
    await page.getByRole('heading', { level: 2, name: 'Status: Quote' }).waitFor();
    const moves = page.getByRole('group', { name: 'Move this job' });

    await moves.getByRole('button', { name: 'Schedule' }).click();
    const dialog = page.getByRole('dialog', { name: `Schedule “${title}”` });
    await dialog.getByLabel('Starts').fill('2026-12-01T09:00');
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await page.getByText(`“${title}” is now scheduled.`).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Status: Scheduled' }).waitFor();

    for (const [button, status] of [['Start', 'In progress'], ['Complete', 'Completed'], ['Invoice', 'Invoiced'], ['Mark paid', 'Paid']] as const) {
      await moves.getByRole('button', { name: button, exact: true }).click();
      await page.getByText(`“${title}” is now ${status.toLowerCase()}.`).waitFor();
      await page.getByRole('heading', { level: 2, name: `Status: ${status}` }).waitFor();
    }

    // A mis-click on Mark paid is put right from the toast.
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText(`“${title}” is back to invoiced.`).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Status: Invoiced' }).waitFor();
    await bothWidths(page, 'errands-job-moves', () => moves.getByRole('button', { name: 'Mark paid' }).waitFor());
    const after = (await apiFetch(page, `/api/jobs/${job.id}`)).json as Job & { status_dates: Record<string, number | null> };
    expect(after.status).toBe('invoiced');
    expect(after.status_dates.paid).toBeNull();
    // Everything else keeps the lifecycle: a paid job cannot be PATCHed back.
    await moves.getByRole('button', { name: 'Mark paid' }).click();
    await page.getByRole('heading', { level: 2, name: 'Status: Paid' }).waitFor();
    tab?.allow(/status of 409/);
    expect((await apiFetch(page, `/api/jobs/${job.id}`, { method: 'PATCH', body: { status: 'invoiced' } })).status).toBe(409);
  });

  it("moves a job from a row's menu in the job list, with Undo", async () => {
    const page = await open('/biz/jobs');
    const owner = await createCustomer(page, { full_name: `Rowan ${unique()}`, email: `rowan.${unique()}@example.com`, phone: '555 0124' });
    const title = `Paint the fence ${unique()}`;
    await apiFetch(page, '/api/jobs', { method: 'POST', body: { customer_id: owner.id, title, status: 'scheduled', scheduled_start_dt: Date.UTC(2026, 11, 2, 8) } });
    await page.getByRole('searchbox', { name: 'Search jobs' }).fill(title);
    await page.getByText('1 job', { exact: true }).waitFor();
    const menuButton = page.getByRole('button', { name: `Move “${title}”` });
    const menu = page.getByRole('menu', { name: `Move “${title}”` });
    // Opens the menu afresh (a viewport change may have closed it, or left it open).
    const openMenu = async () => {
      if (await menu.isVisible()) {
        // Escape closes it (focus is on its first item) and gives focus back to the button.
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
      }
      await menuButton.scrollIntoViewIfNeeded();
      await menuButton.click();
      await menu.waitFor();
    };
    // The list holds only this job now: its menu must still show in full, over the table's edge.
    await bothWidths(page, 'errands-job-row-menu', openMenu);
    await openMenu();
    await menu.getByRole('menuitem', { name: 'Start' }).click();
    await page.getByText(`“${title}” is now in progress.`).waitFor();
    await page.getByRole('row', { name: new RegExp(title) }).getByText('In progress').waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText(`“${title}” is back to scheduled.`).waitFor();
    await page.getByRole('row', { name: new RegExp(title) }).getByText('Scheduled', { exact: true }).waitFor();
  });
});
