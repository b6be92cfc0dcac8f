// CSV import (issue 13) in real Chromium against the production build: fixture files kept in the
// repository (a BOM, semicolons, line breaks and quotes in cells, emoji and accents, Windows-1252,
// duplicates, a bad email; 10 000 rows in long/import-10000.e2e.test.ts), files that are not CSV, the skipped-rows download, undo,
// and export → import giving back exactly what was exported.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiFetch, screenshot, waitForBackend, useBrowserSession } from './harness';
import { byEmail, chooseFile, dialog, fixture, openCustomerList, openImport, resultText, total, type Customer } from './import-dialog';

const session = useBrowserSession({ warm: true });

const open = () => openCustomerList(session);

describe('CSV import in Chromium', () => {
  it('imports a UTF-8 file with a BOM and semicolons: problems by row, duplicates, text stored exactly, skipped rows, undo', async () => {
    const { page } = await open();
    const before = await total(page);
    await openImport(page);
    await chooseFile(page, fixture('customers-semicolon-bom.csv'));
    // Every problem row is named with its row number in the file (the header is row 1).
    const problems = page.getByTestId('import-problems');
    await problems.getByText('2 rows have problems and will be skipped').waitFor();
    await expect(problems.getByRole('listitem').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^Row 7: email: Enter an email address like name@example\.com, or leave it empty\./),
      expect.stringMatching(/^Row 8: full name: Enter the full name\./),
    ]);
    await expect(page.getByTestId('import-duplicates').getByRole('listitem').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^Row 9: Same as row 2 of this file/),
    ]);
    await expect(dialog(page).getByText('UTF-8, semicolon separated').count()).resolves.toBe(1);
    // The preview shows the rows as they will be stored: the line break and the quotes kept.
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('Renée "Rainy" O\'Brien').waitFor();
    await expect(preview.getByRole('cell', { name: '+353 1 234 5678' }).count()).resolves.toBe(1);
    await page.getByText('Ready: 6 customers to add, 0 to update, 3 to skip.').waitFor();
    await screenshot(page, 'import-preview-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'import-preview-375');
    await page.getByTestId('import-duplicates').scrollIntoViewIfNeeded();
    await screenshot(page, 'import-preview-problems-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    await dialog(page).getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('import-result').waitFor();
    expect(await resultText(page)).toBe('Imported 6 customers, updated 0, skipped 3.');
    await screenshot(page, 'import-result-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'import-result-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await total(page)).toBe(before + 6);

    // Exactly the text of the file: trimmed only; formulas and markup stay plain strings; Otto's
    // own guard apostrophe (on the +353 phone) is gone.
    const stored = async (email: string) => (await byEmail(page, email))[0];
    expect(await stored('zoe.adahl@import.example')).toMatchObject({ full_name: 'Zoë Ådahl 🎉', phone: '+46 70 123 45 67' });
    expect(await stored('renee@import.example')).toMatchObject({ full_name: 'Renée "Rainy" O\'Brien', phone: '+353 1 234 5678' });
    expect(await stored('lines@import.example')).toMatchObject({ full_name: 'Line one\nLine two; still the name' });
    expect(await stored('formula@import.example')).toMatchObject({ full_name: '=HYPERLINK("http://evil.example","click me")' });
    expect(await stored('markup@import.example')).toMatchObject({ full_name: '<b>Bold</b> & <i>Co</i>' });
    expect(await stored('jose@import.example')).toMatchObject({ full_name: 'José Nuñez 👷' });
    expect(await byEmail(page, 'zoe.adahl@import.example')).toHaveLength(1);

    // The skipped rows, downloadable, each with the reason.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the skipped rows (CSV)' }).click()]);
    const skipped = readFileSync((await download.path()) as string, 'utf8');
    // With a UTF-8 byte-order mark, as every CSV Otto writes (Excel on Windows needs it for accents).
    expect(skipped.startsWith('\uFEFF')).toBe(true);
    expect(skipped.slice(1).split('\r\n').filter(Boolean)).toEqual([
      '"Full name","E-mail","Phone number","Why it was skipped"',
      '"Bad Email","not-an-email","555 0104","email: Enter an email address like name@example.com, or leave it empty."',
      '"","noname@import.example","555 0105","full name: Enter the full name."',
      '"Zoë Again","ZOE.ADAHL@import.example","555 0106","A duplicate: skipped, as chosen."',
    ]);

    // The list behind the dialog shows the new customers once the import landed.
    await page.getByRole('button', { name: 'Undo this import' }).click();
    await dialog(page).getByText('Undone: removed 6 customers.').waitFor();
    expect(await total(page)).toBe(before);
    expect(await byEmail(page, 'zoe.adahl@import.example')).toEqual([]);
    expect((await apiFetch(page, '/api/imports/last')).json).toBeNull();
  });

  it('reads a Windows-1252 file and updates the existing customer when asked, and undo puts it back', async () => {
    const { page } = await open();
    const existing = (await apiFetch(page, '/api/customers', { method: 'POST', body: { full_name: 'Existing Person', email: 'EXISTING@import.example', phone: '555 0000' } })).json as Customer;
    await openImport(page);
    await chooseFile(page, fixture('customers-windows-1252.csv'));
    await dialog(page).getByText('Windows-1252, comma separated').waitFor();
    await page.getByTestId('import-duplicates').getByText('Row 5: A customer with this email is already in Otto').waitFor();
    await page.getByText('Ready: 3 customers to add, 0 to update, 1 to skip.').waitFor();
    await page.getByRole('radio', { name: 'Update the existing record' }).check();
    await page.getByText('Ready: 3 customers to add, 1 to update, 0 to skip.').waitFor();
    await dialog(page).getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('import-result').waitFor();
    expect(await resultText(page)).toBe('Imported 3 customers, updated 1, skipped 0.');
    expect((await byEmail(page, 'francois@import.example'))[0]?.full_name).toBe('François Müller');
    expect((await byEmail(page, 'smart@import.example'))[0]?.full_name).toBe('“Smart” Quotes – Ltd');
    expect((await byEmail(page, 'soren@import.example'))[0]?.full_name).toBe('Søren Ærø, Esq.');
    expect((await apiFetch(page, `/api/customers/${existing.id}`)).json).toMatchObject({ full_name: 'Existing Person Updated', email: 'existing@import.example', phone: '555 0199' });

    await page.getByRole('button', { name: 'Undo this import' }).click();
    await dialog(page).getByText('Undone: removed 3 customers, put back 1 customer as they were.').waitFor();
    expect((await apiFetch(page, `/api/customers/${existing.id}`)).json).toEqual(existing);
  });

  it('says which columns it leaves out, and offers Undo after the dialog is closed', async () => {
    const { page } = await open();
    const before = await total(page);
    await openImport(page);
    await chooseFile(page, fixture('customers-with-notes.csv'));
    await page.getByTestId('import-unmapped').getByText('Not imported: “Notes” (no field above takes this column).').waitFor();
    // Twelve later rows repeat the first one's email: duplicates, skipped by default.
    await page.getByText('Ready: 2 customers to add, 0 to update, 12 to skip.').waitFor();
    // However long the dialog, its Import button is on screen at 1280x800 (its buttons stick to
    // its bottom edge), and at 375 px the preview of three columns fits without scrolling sideways.
    await page.setViewportSize({ width: 1280, height: 800 });
    const importButton = dialog(page).getByRole('button', { name: 'Import', exact: true });
    expect(await importButton.evaluate((button) => button.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true);
    await page.setViewportSize({ width: 375, height: 740 });
    const preview = page.getByRole('region', { name: 'Preview' });
    expect(await preview.evaluate((region) => region.scrollWidth - region.clientWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await importButton.click();
    await page.getByTestId('import-result').waitFor();
    await dialog(page).getByRole('button', { name: 'Done' }).click();
    expect(await total(page)).toBe(before + 2);
    // The dialog's Undo went with it; the toast offers it for a while.
    const toast = page.locator('[data-kind="import"]');
    await toast.getByText('Imported 2 customers.').waitFor();
    await toast.getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Import undone: removed 2 customers.').waitFor();
    expect(await total(page)).toBe(before);
  });

  it('another open tab shows the imported customers once the import lands', async () => {
    const first = await open();
    const second = await session.openBeside(first, '/biz/customers');
    await second.page.getByRole('table').getByRole('row').nth(1).waitFor();
    await openImport(first.page);
    await chooseFile(first.page, fixture('customers-semicolon-bom.csv'));
    await first.page.getByText('Ready: 6 customers to add').waitFor();
    await dialog(first.page).getByRole('button', { name: 'Import', exact: true }).click();
    await first.page.getByTestId('import-result').waitFor();
    // The other tab refetched on the change feed, without a reload.
    await second.page.getByRole('table').getByText('José Nuñez 👷').waitFor();
    await second.page.getByText('506 customers').waitFor();
  });

  it('refuses files that are not CSV in words, changing nothing', async () => {
    const { page } = await open();
    const before = await total(page);
    const dir = mkdtempSync(join(tmpdir(), 'otto-import-'));
    try {
      // A 100 MB file, made here and never committed: refused by its size before it is read.
      const big = join(dir, 'huge.csv');
      const fd = openSync(big, 'w');
      const block = Buffer.alloc(1024 * 1024, 'a,b,c\n');
      for (let i = 0; i < 100; i++) writeSync(fd, block);
      closeSync(fd);
      const cases: [string, RegExp][] = [
        [fixture('empty.csv'), /The file is empty\./],
        [fixture('binary.csv'), /not a CSV file: it holds binary data/],
        [fixture('not-csv.html'), /not a CSV file: it is a web page/],
        [big, /The file is 100 MB; Otto imports CSV files up to 20 MB/],
      ];
      await openImport(page);
      for (const [path, words] of cases) {
        await chooseFile(page, path);
        const notice = dialog(page).getByText(words);
        await notice.waitFor({ timeout: 30_000 });
        await dialog(page).getByText('This file cannot be imported').waitFor();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await total(page)).toBe(before);
    expect((await apiFetch(page, '/api/imports/last')).json).toBeNull();
  });

  it('imports jobs: customers by email or name, asks day-first or month-first, no match is a problem', async () => {
    const { page } = await open();
    await openImport(page);
    await chooseFile(page, fixture('customers-semicolon-bom.csv'));
    await page.getByText('Ready: 6 customers to add').waitFor();
    await dialog(page).getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('import-result').waitFor();
    await dialog(page).getByRole('button', { name: 'Done' }).click();

    await page.goto('/biz/customers');
    await waitForBackend(page);
    await openImport(page);
    await dialog(page).getByRole('radio', { name: 'Jobs' }).check();
    await chooseFile(page, fixture('jobs-day-first.csv'));
    await dialog(page).getByText('Dates like 03/04/2026 could be read two ways').waitFor();
    await page.getByTestId('import-problems').getByText(/could be day first or month first/).first().waitFor();
    await page.getByRole('radio', { name: /Day first/ }).check();
    await page.getByText('Ready: 3 jobs to add, 0 to update, 1 to skip.').waitFor();
    await expect(page.getByTestId('import-problems').getByRole('listitem').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^Row 4: customer email: No customer has the email nobody@import\.example or the name “Nobody Known”/),
    ]);
    await dialog(page).getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('import-result').waitFor();
    expect(await resultText(page)).toBe('Imported 3 jobs, updated 0, skipped 1.');
    const jobs = (await apiFetch(page, `/api/jobs?filterJson=${encodeURIComponent(JSON.stringify({ queryText: 'adahl', limit: 5 }))}`)).json as {
      title: string;
      customer_name: string;
      status: string;
      price_cents: number;
      scheduled_start_dt: number;
    }[];
    const expectedStart = await page.evaluate(() => new Date(2026, 3, 3, 9, 0).getTime());
    expect(jobs).toEqual([expect.objectContaining({ title: 'Boiler service', customer_name: 'Zoë Ådahl 🎉', status: 'scheduled', price_cents: 12550, scheduled_start_dt: expectedStart })]);
    const jose = (await apiFetch(page, `/api/jobs?filterJson=${encodeURIComponent(JSON.stringify({ queryText: 'nunez' }))}`)).json as { title: string }[];
    expect(jose.map((j) => j).sort((a, b) => a.title.localeCompare(b.title))).toEqual([
      expect.objectContaining({ title: 'Gutter clean', status: 'quote', price_cents: 8000, scheduled_start_dt: await page.evaluate(() => new Date(2026, 5, 5).getTime()) }),
      expect.objectContaining({ title: 'Paint fence', status: 'paid', price_cents: 30000, scheduled_start_dt: await page.evaluate(() => new Date(2026, 7, 7, 14, 30).getTime()) }),
    ]);
  });

  it("gives back exactly what was exported: Otto's CSV export imported into another browser", async () => {
    const tricky = [
      { full_name: '=HYPERLINK("http://x.example","x")', email: 'rt1@roundtrip.example', phone: '+44 20 7946 0000' },
      { full_name: '-minus @at "quoted", comma\nnew line', email: 'rt2@roundtrip.example', phone: '@555' },
      { full_name: 'Zoë 🎉 <b>bold</b>', email: 'rt3@roundtrip.example', phone: '555 0100' },
    ];
    const source = await open();
    for (const body of tricky) await apiFetch(source.page, '/api/customers', { method: 'POST', body });
    const exportCustomers = async (page: Page) => {
      await page.getByRole('button', { name: 'Backup and export' }).click();
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export customers (CSV)' }).click()]);
      const text = readFileSync((await file.path()) as string, 'utf8');
      await page.keyboard.press('Escape');
      return text;
    };
    const exported = await exportCustomers(source.page);
    const path = join(mkdtempSync(join(tmpdir(), 'otto-roundtrip-')), 'otto-customers.csv');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, exported);

    // Another browser profile: the same first-start customers, none of the three.
    const target = await openCustomerList(session, { fresh: true });
    await target.page.getByRole('button', { name: 'Backup and export' }).click();
    await target.page.getByRole('button', { name: 'Import from CSV…' }).click();
    await chooseFile(target.page, path);
    await target.page.getByText(/Ready: 3 customers to add, 0 to update, 500 to skip\./).waitFor({ timeout: 30_000 });
    await dialog(target.page).getByRole('button', { name: 'Import', exact: true }).click();
    await target.page.getByTestId('import-result').waitFor();
    for (const want of tricky) expect((await byEmail(target.page, want.email))[0]).toMatchObject(want);
    await dialog(target.page).getByRole('button', { name: 'Done' }).click();
    // Back in Backup and export, where the import started.
    await dialog(target.page).getByRole('button', { name: 'Import from CSV…' }).waitFor();
    await target.page.keyboard.press('Escape');
    await dialog(target.page).waitFor({ state: 'detached' });

    // Exported again, the three rows' text columns are what the first browser exported.
    const again = await exportCustomers(target.page);
    const textColumns = (csv: string) =>
      csv
        .split('\r\n')
        .filter((line) => line.includes('roundtrip.example') || line.includes('new line'))
        .map((line) => line.replace(/^"\d+",/, '').replace(/,"[^"]*","[^"]*"$/, ''));
    expect(textColumns(again).sort()).toEqual(textColumns(exported).sort());
    expect(textColumns(exported)).toHaveLength(3);
  });
});
