// A restore trusts a file only when its schema is exactly Otto's (decision 0130), in the real DB
// worker: a backup with an extra trigger, and one whose customers are an endless recursive view,
// are refused in words, and the app keeps answering from the data it had.
import { openSqliteStore } from '@otto/sqlite-store';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch, downloadBackup, launchBrowser, newContext, openPage, screenshot, waitForBackend } from './harness';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The app's own backup with `sql` run on it outside Otto. */
async function edited(backup: Uint8Array, sql: string): Promise<Uint8Array> {
  const store = await openSqliteStore({ storage: 'memory', initialData: backup });
  try {
    store.exec('PRAGMA foreign_keys = OFF');
    store.exec(sql);
    return store.exportDatabase();
  } finally {
    await store.close();
  }
}

async function restore(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.getByRole('button', { name: 'Backup and export' }).click();
  await page.getByLabel('Backup file to restore').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await page.getByRole('button', { name: 'Replace my data' }).click();
}

describe('a hostile backup', () => {
  it('is refused in words, naming what differs, and the data stays as it was', async () => {
    const ctx = await newContext(browser);
    const { page, problems } = await openPage(ctx, '/biz/customers');
    await waitForBackend(page);
    const total = async () => (await apiFetch(page, '/api/customers')).headers['x-total-count'];
    const before = await total();
    const { bytes: backup } = await downloadBackup(page);
    const cases: [string, string, RegExp][] = [
      [
        'extra-trigger.sqlite3',
        "CREATE TRIGGER spy AFTER INSERT ON customers BEGIN UPDATE customers SET email = 'x@evil.example' WHERE id = new.id; END",
        /The file has a trigger `spy` that Otto's schema does not have\./,
      ],
      [
        'endless-view.sqlite3',
        `DROP TABLE customers;
         CREATE VIEW customers AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
           SELECT x AS id, 'Loop' AS full_name, '' AS phone, '' AS email, 1 AS created_dt, 1 AS modified_dt, NULL AS archived_dt FROM n`,
        /The file has a view `customers` that Otto's schema does not have\./,
      ],
    ];
    for (const [name, sql, message] of cases) {
      await restore(page, name, await edited(backup, sql));
      await page.getByRole('alert').filter({ hasText: message }).waitFor({ timeout: 30_000 });
      if (name.startsWith('endless')) await screenshot(page, 'restore-hostile-backup');
      await page.getByRole('button', { name: 'Close' }).click();
      // The DB worker still answers, from the data it had.
      expect(await total()).toBe(before);
    }
    const created = await apiFetch(page, '/api/customers', { method: 'POST', body: { full_name: 'After The Refusal', email: 'after@example.com', phone: '555 0100' } });
    expect(created.status).toBe(200);
    expect((created.json as { email: string }).email).toBe('after@example.com');
    expect(problems()).toEqual([]);
    await ctx.close();
  });
});
