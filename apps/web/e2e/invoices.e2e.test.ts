// Invoices in real Chromium (decision 0161): a completed job invoiced from its screen with three
// lines and tax; the invoice page at desktop and phone width and as printed (screenshots after it
// loaded); its PDF downloaded and read back (the reference, every line and the totals as text); a
// payment over the balance refused in words, a partial payment then the rest, after which the job
// reads Paid (on screen and through the API); the Overview's money owed equal to the open invoices'
// balances read through the API, every page.
import { constants, inflateSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { invoiceSchema, jobSchema, type Invoice } from '@otto/api-contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiFetch, screenshot, useBrowserSession } from './harness';

const session = useBrowserSession();
const zone = 'Europe/London';
const desktop = { viewport: { width: 1280, height: 900 }, timezoneId: zone, locale: 'en-GB' };
// The app's currency follows the browser's locale (en-GB: pounds), in the same locale.
const money = (cents: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(cents / 100);

async function post(page: Page, path: string, body: unknown): Promise<unknown> {
  const call = await apiFetch(page, path, { method: 'POST', body });
  expect(call.status, call.text).toBe(200);
  return call.json;
}

async function getInvoice(page: Page, id: string): Promise<Invoice> {
  const call = await apiFetch(page, `/api/invoices/${id}`);
  expect(call.status, call.text).toBe(200);
  return invoiceSchema.parse(call.json);
}

/** The text a PDF draws (Tj operators), its content streams inflated with node:zlib. */
function pdfText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes);
  const raw = buffer.toString('latin1');
  const texts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    const chunk = buffer.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(chunk, { finishFlush: constants.Z_SYNC_FLUSH }).toString('latin1');
    } catch {
      content = chunk.toString('latin1');
    }
    for (const op of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      texts.push(op[1] !== undefined ? Buffer.from(op[1], 'hex').toString('latin1') : (op[2] ?? '').replace(/\\(.)/g, '$1'));
    }
  }
  return texts.join('\n');
}

/** Waits until the invoice page shows its document (never a screenshot of "Loading…"). */
async function invoiceLoaded(page: Page): Promise<void> {
  await page.locator('.invoice-doc').waitFor({ timeout: 30_000 });
  await page.getByRole('heading', { name: 'Record payment' }).or(page.getByText('Payments received')).first().waitFor();
  expect(await page.getByText('Loading invoice…').count()).toBe(0);
}

describe('invoices in Chromium', () => {
  it('invoices a completed job, prints it, downloads its PDF, takes two payments, and money owed adds up', async () => {
    const tab = await session.open('/biz/overview', desktop);
    const { page } = tab;
    // The business's details, printed on the invoice.
    const put = await apiFetch(page, '/api/settings/business', {
      method: 'PUT',
      body: {
        name: 'Kit & Sons Plumbing',
        address: '1 High Street\nLeeds LS1 4AB',
        tax_number: 'GB 123 4567 89',
        invoice_prefix: 'KS-',
        default_tax_rate_bp: 2000,
        payment_terms_days: 14,
      },
    });
    expect(put.status, put.text).toBe(200);
    const customer = (await post(page, '/api/customers', { full_name: 'Ada Invoice', email: 'ada@invoice.example', phone: '555 0142' })) as { id: string };
    const job = jobSchema.parse(
      await post(page, '/api/jobs', { customer_id: customer.id, title: 'Boiler service', status: 'scheduled', scheduled_start_dt: Date.now() - 86_400_000, price_cents: 12_500 }),
    );
    await post(page, `/api/jobs/${job.id}/move`, { status: 'in_progress' });
    await post(page, `/api/jobs/${job.id}/move`, { status: 'completed' });

    // The palette goes to the invoice list.
    await page.keyboard.press('Control+K');
    await page.getByRole('option', { name: /Go to invoices/ }).click();
    await page.waitForURL('**/biz/invoices');
    await page.locator('#main tbody tr a[href]').first().waitFor();

    // The job's screen offers the invoice; the form starts with its line.
    await page.goto(`/biz/jobs/edit?id=${job.id}`);
    await page.getByRole('link', { name: 'Create invoice' }).click();
    await page.waitForURL(`**/biz/invoices/new?jobs=${job.id}`);
    const lines = page.locator('.invoice-line');
    await expect.poll(() => lines.count()).toBe(1);
    expect(await lines.nth(0).getByLabel('Description').inputValue()).toBe('Boiler service');
    expect(await lines.nth(0).getByLabel('Tax %').inputValue()).toBe('20');
    await page.getByRole('button', { name: 'Add a line' }).click();
    await lines.nth(1).getByLabel('Description').fill('Labour, hours');
    await lines.nth(1).getByLabel('Quantity').fill('1.5');
    await lines.nth(1).getByLabel('Unit price').fill('49.99');
    await page.getByRole('button', { name: 'Add a line' }).click();
    await lines.nth(2).getByLabel('Description').fill('Pressure valve');
    await lines.nth(2).getByLabel('Unit price').fill('18.40');
    await lines.nth(2).getByLabel('Tax %').fill('5');
    await lines.nth(2).getByLabel('Discount %').fill('10');
    // 125.00 + 20 % = 150.00; 1.5 × 49.99 = 74.99 (74.985 up) + 15.00 = 89.99; 18.40 − 1.84 = 16.56 + 0.83 = 17.39.
    const totals = page.getByLabel('Totals');
    await expect.poll(() => totals.textContent()).toContain(money(25_738));
    expect(await totals.textContent()).toContain(money(21_839));
    await page.getByRole('button', { name: 'Create invoice' }).click();
    await page.waitForURL(/\/biz\/invoices\/\d+$/);
    await invoiceLoaded(page);
    const id = page.url().split('/').pop()!;
    let invoice = await getInvoice(page, id);
    expect(invoice).toMatchObject({ status: 'open', subtotal_cents: 21_839, discount_cents: 184, tax_cents: 4_083, total_cents: 25_738, balance_cents: 25_738 });
    expect(invoice.reference).toMatch(/^KS-\d{4}$/);
    expect(invoice.lines.map((l) => l.description)).toEqual(['Boiler service', 'Labour, hours', 'Pressure valve']);
    expect((await apiFetch(page, `/api/jobs/${job.id}`)).json).toMatchObject({ status: 'invoiced' });
    const doc = page.locator('.invoice-doc');
    for (const text of [invoice.reference, 'Kit & Sons Plumbing', 'GB 123 4567 89', 'Ada Invoice', 'Pressure valve', money(25_738)]) {
      expect(await doc.textContent()).toContain(text);
    }

    await screenshot(page, 'invoice-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await invoiceLoaded(page);
    await screenshot(page, 'invoice-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ media: 'print' });
    // Printed: the document alone.
    expect(await page.locator('.otto-shell__header').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await page.getByRole('heading', { name: 'Record payment' }).isVisible()).toBe(false);
    expect(await doc.isVisible()).toBe(true);
    await screenshot(page, 'invoice-print');
    await page.emulateMedia({ media: 'screen' });

    // The PDF: every line and the totals as text.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`${invoice.reference}.pdf`);
    const bytes = new Uint8Array(readFileSync((await download.path())!));
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    for (const expected of [
      invoice.reference,
      'Kit & Sons Plumbing',
      'Ada Invoice',
      'Boiler service',
      'Labour, hours',
      'Pressure valve',
      'Subtotal',
      money(21_839),
      'Tax',
      money(4_083),
      'Total',
      money(25_738),
      'Balance due',
    ]) {
      expect(text, `the PDF's text has “${expected}”`).toContain(expected);
    }

    // A payment over the balance is refused in words, by the field (the browser logs the 400).
    tab.allow(/status of 400/);
    const amount = page.getByLabel('Amount');
    expect(await amount.inputValue()).toBe('257.38');
    await amount.fill('300');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.locator('.otto-field__error', { hasText: 'That is more than the balance due (257.38).' }).waitFor();
    // A part, then the rest (the amount starts at the new balance).
    await amount.fill('100');
    await page.getByLabel('Method').selectOption('cash');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText(`Balance due: ${money(15_738)}`).first().waitFor();
    await expect.poll(async () => (await getInvoice(page, id)).balance_cents).toBe(15_738);
    await expect.poll(() => page.getByLabel('Amount').inputValue()).toBe('157.38');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText(`Invoice ${invoice.reference} is paid in full.`).waitFor();
    invoice = await getInvoice(page, id);
    expect(invoice).toMatchObject({ status: 'paid', paid_cents: 25_738, balance_cents: 0 });
    expect(invoice.payments.map((p) => p.amount_cents)).toEqual([10_000, 15_738]);
    await page.locator('.invoice-doc__stamp', { hasText: 'Paid' }).waitFor();
    expect((await apiFetch(page, `/api/jobs/${job.id}`)).json).toMatchObject({ status: 'paid' });
    await page.goto(`/biz/jobs/edit?id=${job.id}`);
    await page.getByRole('heading', { name: 'Status: Paid' }).waitFor();
    await page.getByRole('link', { name: invoice.reference }).waitFor();

    // Money owed on the Overview: the open invoices' balances, every page of them.
    let owed = 0;
    for (let offset = 0; ; offset += 1000) {
      const call = await apiFetch(page, `/api/invoices?filterJson=${encodeURIComponent(JSON.stringify({ status: 'open', limit: 1000, offset }))}`);
      expect(call.status, call.text).toBe(200);
      const rows = call.json as Invoice[];
      owed += rows.reduce((sum, i) => sum + i.balance_cents, 0);
      if (rows.length < 1000) break;
    }
    await page.goto('/biz/overview');
    const panel = page.locator('.overview-owed');
    await expect.poll(() => panel.locator('.overview-owed__total').textContent()).toBe(money(owed));
    // By age and overdue, each a link to those invoices.
    for (const age of ['0-30', '31-60', '61-90', '90+']) {
      expect(await panel.locator(`a[href="/biz/invoices?age=${encodeURIComponent(age)}"]`).count()).toBe(1);
    }
  });
});
