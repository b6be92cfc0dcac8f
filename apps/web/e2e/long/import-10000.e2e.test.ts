// The 10 000-row import (issue 13) in real Chromium, a long exploration (`npm run test:long`): the
// same dialog and engine as import.e2e.test.ts's files, at a size that takes its time.
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from '../harness';
import { byEmail, chooseFile, dialog, fixture, openCustomerList, openImport, resultText, total } from '../import-dialog';

const session = useBrowserSession();

describe('a large CSV import in Chromium', () => {
  it('imports 10 000 rows (tab separated) in one go, and the customer list shows them', async () => {
    const { page } = await openCustomerList(session);
    const before = await total(page);
    await openImport(page);
    await chooseFile(page, fixture('customers-10000.tsv'));
    await page.getByText('Ready: 10,000 customers to add, 0 to update, 0 to skip.').waitFor({ timeout: 180_000 });
    await dialog(page).getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('import-result').waitFor({ timeout: 180_000 });
    expect(await resultText(page)).toBe('Imported 10,000 customers, updated 0, skipped 0.');
    expect(await total(page)).toBe(before + 10_000);
    expect((await byEmail(page, 'person9999@bulk.example'))[0]?.phone).toBe('+1 555 09999');
    await dialog(page).getByRole('button', { name: 'Done' }).click();
    // The list refetched: the newest customers are the imported ones.
    await page.getByRole('table').getByText(/@bulk\.example/).first().waitFor();
  }, 240_000);
});
