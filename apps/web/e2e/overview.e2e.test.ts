// The Overview in real Chromium on the first-start data: its own small chunk, loaded only there;
// a bar of "Paid per month" followed into the job list filtered to its month, and back; tooltips
// on hover and focus; screenshots at desktop and phone width, light and dark, after the data loaded.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { reportSummarySchema, type ReportSummary } from '@otto/api-contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiFetch, screenshot, useBrowserSession } from './harness';

const session = useBrowserSession({ warm: true });

async function summaryIn(page: Page): Promise<ReportSummary> {
  const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const call = await apiFetch(page, `/api/reports/summary?filterJson=${encodeURIComponent(JSON.stringify({ tz }))}`);
  expect(call.status).toBe(200);
  return reportSummarySchema.parse(call.json);
}

const monthName = (month: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.parse(`${month}-01T00:00:00Z`));

/** Waits until the Overview shows its data (never a screenshot of "Loading…"). */
async function overviewLoaded(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Paid per month' }).waitFor({ timeout: 30_000 });
  await page.getByRole('heading', { name: 'Money owed' }).waitFor();
  expect(await page.getByText('Loading the overview…').count()).toBe(0);
}

describe('the Overview in Chromium', () => {
  it('ships as its own chunk of at most 40 KB gzipped, fetched only when the Overview opens', async () => {
    const assets = fileURLToPath(new URL('../dist/assets/', import.meta.url));
    const chunks = readdirSync(assets).filter((name) => /^overview-screen-.*\.(js|css)$/.test(name));
    expect(chunks.length).toBeGreaterThan(0);
    const gzipped = chunks.reduce((n, name) => n + gzipSync(readFileSync(`${assets}${name}`), { level: 9 }).length, 0);
    expect(gzipped).toBeLessThanOrEqual(40 * 1024);

    const { page } = await session.open('/biz/customers');
    await page.getByRole('table').waitFor();
    const scripts = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /overview-screen/.test(n)));
    expect(await scripts()).toEqual([]);
    await page.getByRole('link', { name: 'Overview' }).click();
    await overviewLoaded(page);
    expect((await scripts()).length).toBeGreaterThan(0);
  });

  it('follows a bar of Paid per month into the job list filtered to its month, and back', async () => {
    const { page } = await session.open('/biz/overview', { viewport: { width: 1280, height: 900 } });
    await overviewLoaded(page);
    const summary = await summaryIn(page);
    const month = [...summary.paid_per_month].reverse().find((m) => m.jobs > 0);
    expect(month, 'the first-start data has jobs paid in the last 12 months').toBeDefined();
    await screenshot(page, 'overview-1280');
    // Each value axis label sits on its grid line (top, middle, baseline): its centre within 2 px.
    const offsets = await page.evaluate(() =>
      [...document.querySelectorAll('.chart__plot')].flatMap((plot) => {
        const bars = plot.querySelector('.chart__bars')!.getBoundingClientRect();
        const lines = [bars.top, bars.top + bars.height / 2, bars.bottom];
        return [...plot.querySelectorAll('.chart__axis span')].map((label, i) => {
          const box = label.getBoundingClientRect();
          return Math.round(Math.abs(box.top + box.height / 2 - lines[i]!));
        });
      }),
    );
    expect(offsets.length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...offsets), `offsets ${offsets.join(', ')} px`).toBeLessThanOrEqual(2);

    const bar = page.getByRole('link', { name: new RegExp(`^${monthName(month!.month)}: .* paid on .* Open these jobs\\.$`) });
    // A tooltip on hover and on focus; Escape hides it.
    await bar.hover();
    const tip = page.locator('.chart-tip', { hasText: monthName(month!.month) });
    await tip.waitFor();
    await page.mouse.move(0, 0);
    await bar.focus();
    await tip.waitFor();
    await page.keyboard.press('Escape');
    await tip.waitFor({ state: 'hidden' });

    await bar.click();
    await page.waitForURL(new RegExp(`/biz/jobs\\?status=paid&paid=${month!.month}$`));
    await page.getByText(`Showing jobs paid in ${monthName(month!.month)}`).waitFor();
    const rows = page.getByRole('table', { name: 'Jobs' }).getByRole('row');
    await expect.poll(async () => (await rows.count()) - 1, { timeout: 30_000 }).toBe(Math.min(month!.jobs, 10));
    expect(await page.getByRole('button', { name: /^Paid/ }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'overview-bar-to-jobs');

    await page.goBack();
    await page.waitForURL(/\/biz\/overview$/);
    await overviewLoaded(page);
  });

  it('opens the job list on a status from Jobs by status, and reads well on a phone and in dark mode', async () => {
    const { page } = await session.open('/biz/overview', { viewport: { width: 375, height: 812 } });
    await overviewLoaded(page);
    // A phone shows the last months with their short names ("Jul"), not one letter ("J J").
    const labels = await page.locator('.chart__group:visible .chart__label').allInnerTexts();
    expect(labels.length).toBeGreaterThanOrEqual(5);
    expect(labels.every((label) => label.trim().length >= 3), labels.join(' ')).toBe(true);
    await screenshot(page, 'overview-375');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'overview-375-dark');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'overview-1280-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    const summary = await summaryIn(page);
    await page.getByRole('link', { name: /^Scheduled\b.* Open these jobs\.$/ }).click();
    await page.waitForURL(/\/biz\/jobs\?status=scheduled$/);
    const rows = page.getByRole('table', { name: 'Jobs' }).getByRole('row');
    await expect.poll(async () => (await rows.count()) - 1, { timeout: 30_000 }).toBe(Math.min(summary.jobs_by_status.scheduled, 10));
  });
});
