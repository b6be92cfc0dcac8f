// A whole errand with the keyboard alone (no clicks, no fill): the command palette, shortcuts,
// Ctrl+Enter to save, j/k through rows, ? for the sheet, and Escape returning focus.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiFetch, customersPath, screenshot, useBrowserSession } from './harness';

const session = useBrowserSession({ warm: true });

async function open(path: string) {
  const tab = await session.open(path);
  await tab.page.locator('#main tbody tr a[href]').first().waitFor();
  return tab;
}

/** What has focus, as a short description (`input#customer-phone`, `a “Ada”`). */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return 'nothing';
    const name = el.getAttribute('name') ?? el.getAttribute('data-field') ?? el.id;
    return `${el.tagName.toLowerCase()}${name ? `[${name}]` : ''} “${(el.textContent ?? '').trim().slice(0, 40)}”`;
  });
}

/** Presses Tab until the focused element matches `selector` (what a keyboard user does). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}; focus is on ${await focused(page)}.`);
}

/** In the open palette: arrows down until the selected option starts with `label`, then Enter. */
async function pickInPalette(page: Page, label: string): Promise<void> {
  const option = page.getByRole('option', { name: label }).first();
  await option.waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
    await screenshot(page, 'keyboard-palette-failed');
    throw new Error(`${String(error)}; focus on ${await focused(page)}`);
  });
  await page.getByText('Searching…').waitFor({ state: 'detached' });
  for (let i = 0; i < 30 && (await option.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
  expect(await option.getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('Enter');
}

describe('keyboard only', () => {
  it('does a whole errand: palette → customer → save with Ctrl+Enter → new job → Scheduled → g c → /', { timeout: 180_000 }, async () => {
    const { page } = await open('/biz/customers');
    const [customer] = (await apiFetch(page, customersPath({ limit: 1, offset: 7 }))).json as { id: string; full_name: string }[];
    const name = customer!.full_name;

    // Ctrl+K, type the name, Enter on the customer.
    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.type(name);
    // The best match is highlighted as soon as it is shown: Enter needs no arrow key.
    const match = page.getByRole('option', { name }).first();
    await match.waitFor();
    await expect.poll(() => match.getAttribute('aria-selected')).toBe('true');
    await pickInPalette(page, name);
    await page.waitForURL(`**/biz/customers/edit/${customer!.id}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    expect(await palette.count()).toBe(0);

    // Edit the phone number and save with Ctrl+Enter.
    await tabTo(page, '#customer-phone');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('+1 555 0100');
    await page.keyboard.press('Control+Enter');
    await page.getByText(`Changes to ${name} were saved.`).waitFor();
    const saved = (await apiFetch(page, `/api/customers/${customer!.id}`)).json as { phone: string };
    expect(saved.phone).toBe('+1 555 0100');

    // A job for them, from the palette's "New job for this customer".
    await page.keyboard.press('Control+K');
    await page.keyboard.type('new job');
    await pickInPalette(page, 'New job for this customer');
    await page.getByRole('heading', { level: 1, name: 'New job' }).waitFor();
    await tabTo(page, 'input[name="title"]');
    await page.keyboard.type('Mend the fence, keyboard only');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('heading', { level: 1, name: 'Mend the fence, keyboard only' }).waitFor();
    const jobId = new URL(page.url()).searchParams.get('id')!;

    // Move it to Scheduled: the status select by keys, a start time typed into its segments.
    await tabTo(page, 'select[name="status"]');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('select[name="status"]').inputValue()).toBe('scheduled');
    await tabTo(page, '[data-field="scheduled_start_dt"]');
    await page.keyboard.type('12012026');
    await page.keyboard.press('Tab');
    await page.keyboard.type('0900AM');
    expect(await page.locator('[data-field="scheduled_start_dt"]').inputValue()).toBe('2026-12-01T09:00');
    await page.keyboard.press('Control+Enter');
    await page.getByText(/was saved \(Scheduled\)/).waitFor();
    const job = (await apiFetch(page, `/api/jobs/${jobId}`)).json as { status: string; customer_id: string };
    expect(job).toMatchObject({ status: 'scheduled', customer_id: customer!.id });

    // Plain keys do nothing while typing: g then c typed into a field are text. Had `c` been taken
    // for "go to customers", it would have been kept out of the field (the shortcut prevents its
    // default) and the page would be on its way to the list.
    await tabTo(page, 'input[name="service_address"]');
    const address = page.locator('input[name="service_address"]');
    const before = await address.inputValue();
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    expect(await address.inputValue()).toBe(`${before}gc`);
    expect(new URL(page.url()).pathname).toBe('/biz/jobs/edit');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    expect(await address.inputValue()).toBe(before);
    // Out of the field, g c and / find them again.
    await tabTo(page, 'button[type="submit"]');
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await page.waitForURL('**/biz/customers');
    await page.locator('#main tbody tr a[href]').first().waitFor();
    await page.keyboard.press('/');
    expect(await focused(page)).toMatch(/^input/);
    await page.keyboard.type(name);
    await page.waitForURL((url) => url.searchParams.get('q') === name);
    await page.getByRole('link', { name, exact: true }).waitFor();
    await screenshot(page, 'keyboard-errand-found');
  });

  it('takes a new job to Paid in at most 12 keys, besides the words typed', { timeout: 120_000 }, async () => {
    const { page } = await open('/biz/jobs');
    const [customer] = (await apiFetch(page, customersPath({ limit: 1 }))).json as { full_name: string }[];
    let keys = 0;
    const press = async (key: string) => {
      keys += 1;
      await page.keyboard.press(key);
    };
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

    await press('n');
    await page.getByRole('heading', { level: 1, name: 'New job' }).waitFor();
    // The cursor is in the customer picker: a name typed, the first suggestion taken with Enter.
    await page.keyboard.type(customer!.full_name);
    await page.getByRole('option', { name: new RegExp(customer!.full_name) }).first().waitFor();
    await press('Enter');
    await page.getByText(`Selected: ${customer!.full_name}`).waitFor();
    await press('Tab');
    expect(await focused(page)).toMatch(/^input\[title\]/);
    await page.keyboard.type('Fix the gate, counted');
    await press('Control+Enter');
    await page.getByRole('heading', { level: 1, name: 'Fix the gate, counted' }).waitFor();
    const jobId = new URL(page.url()).searchParams.get('id')!;

    // The new job's screen has its next step focused: Schedule asks for the start only.
    await expect.poll(focusedText).toBe('Schedule');
    await press('Enter');
    await page.getByRole('dialog', { name: 'Schedule “Fix the gate, counted”' }).waitFor();
    await page.keyboard.type('12012026');
    await press('Tab');
    await page.keyboard.type('0900AM');
    await press('Enter');
    // Each move leaves focus on the next one.
    for (const [step, next] of [
      ['Start', 'Complete'],
      ['Complete', 'Invoice'],
      ['Invoice', 'Mark paid'],
    ] as const) {
      await expect.poll(focusedText).toBe(step);
      await press('Enter');
      await expect.poll(focusedText).toBe(next);
    }
    await press('Enter');
    await expect.poll(async () => ((await apiFetch(page, `/api/jobs/${jobId}`)).json as { status: string }).status).toBe('paid');
    expect(keys).toBeLessThanOrEqual(12);
    console.log(`a job's life, new to paid: ${keys} keys besides the words typed`);
  });

  it('moves through rows with j and k, opens with Enter, and Escape gives focus back', { timeout: 120_000 }, async () => {
    const { page } = await open('/biz/customers');
    const links = page.locator('#main tbody tr th a');
    const second = (await links.nth(1).textContent())!;

    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await focused(page)).toBe(`a “${second}”`);

    // The palette closes with Escape and focus goes back to the row it was opened from.
    await page.keyboard.press('Control+K');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor({ state: 'detached' });
    expect(await focused(page)).toBe(`a “${second}”`);

    // ? shows every shortcut; Escape closes it, focus back on the row.
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    expect(await sheet.textContent()).toContain('Go to customers');
    await screenshot(page, 'keyboard-shortcut-sheet');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe(`a “${second}”`);

    // Typing n in the search box types; it does not start a new customer. Escape clears the box.
    await page.keyboard.press('/');
    await page.keyboard.type('n');
    expect(new URL(page.url()).pathname).toBe('/biz/customers');
    expect(await page.getByRole('searchbox', { name: 'Search customers' }).inputValue()).toBe('n');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('searchbox', { name: 'Search customers' }).inputValue()).toBe('');

    // Out of the box, n starts a new customer; g j goes to jobs; Enter on a row opens it. Tab on
    // until no field has focus (the list's Order and page-size selects come after the search box).
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      if (!(await page.evaluate(() => document.activeElement?.matches('input, select, textarea')))) break;
    }
    await page.keyboard.press('n');
    await page.getByRole('heading', { level: 1, name: 'New customer' }).waitFor();
    // The cursor starts in Full name: what is typed next lands there (issue 36), not nowhere.
    await expect.poll(() => focused(page)).toBe('input[full_name] “”');
    await page.keyboard.type('Ada Keys');
    expect(await page.getByLabel('Full name').inputValue()).toBe('Ada Keys');
    // Emptied again (nothing unsaved to ask about), and out of the fields: g j goes to jobs.
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await tabTo(page, 'button[type="submit"]');
    await page.keyboard.press('g');
    await page.keyboard.press('j');
    await page.waitForURL('**/biz/jobs');
    await page.locator('#main tbody tr a[href]').first().waitFor();
    await page.keyboard.press('j');
    const title = (await page.locator('#main tbody tr th a').first().textContent())!;
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    // n on the jobs list: a new job, the cursor in its first field (the customer).
    await page.keyboard.press('g');
    await page.keyboard.press('j');
    await page.waitForURL('**/biz/jobs');
    await page.locator('#main tbody tr a[href]').first().waitFor();
    await page.keyboard.press('n');
    await page.getByRole('heading', { level: 1, name: 'New job' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('form')?.querySelector('input, select, textarea') === document.activeElement)).toBe(true);
  });
});
