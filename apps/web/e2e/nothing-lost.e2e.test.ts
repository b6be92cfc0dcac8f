// Nothing a user or the browser does loses data: backup and checked restore, markup that stays
// text under a strict Content-Security-Policy, and a browser killed in the middle of a burst of writes.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latestSchemaVersion } from '@otto/mock-backend';
import { inspectDatabaseBytes, openSqliteStore } from '@otto/sqlite-store';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFetch,
  freshUserDataDir,
  launchBrowser,
  launchPersistent,
  newContext,
  openPage,
  removeUserDataDir,
  screenshot,
  trackPage,
  waitForBackend,
} from './harness';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openBiz(ctx: BrowserContext, path = '/biz/customers') {
  const tab = await openPage(ctx, path);
  await waitForBackend(tab.page);
  return tab;
}

/** Downloads a backup through the Backup and export dialog; returns the file's bytes. */
async function downloadBackup(page: Page): Promise<Uint8Array> {
  await page.getByRole('button', { name: 'Backup and export' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download a backup' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^otto-backup-\d{4}-\d{2}-\d{2}\.sqlite3$/);
  const bytes = new Uint8Array(readFileSync((await download.path())!));
  await page.getByRole('button', { name: 'Close' }).click();
  return bytes;
}

async function createCustomer(page: Page, full_name: string, email = 'someone@example.com') {
  const res = await apiFetch(page, '/api/customers', { method: 'POST', body: { full_name, email, phone: '555 0100' } });
  expect(res.status).toBe(200);
  return res.json as { id: string };
}

describe('backup and restore', () => {
  it('downloads a SQLite file any SQLite tool opens, and restores it after a confirmation', async () => {
    const ctx = await newContext(browser);
    const { page, problems } = await openBiz(ctx);
    await createCustomer(page, 'Kept Before Backup');
    const backup = await downloadBackup(page);
    const info = await inspectDatabaseBytes(backup);
    expect(info.userVersion).toBe(latestSchemaVersion);
    expect(info.objects).toEqual(expect.arrayContaining(['customers', 'customers_fts', 'jobs', 'jobs_fts']));

    await createCustomer(page, 'Added After Backup');
    const file = join(tmpdir(), `otto-e2e-${Date.now()}.sqlite3`);
    writeFileSync(file, backup);
    await page.getByRole('button', { name: 'Backup and export' }).click();
    await page.getByLabel('Backup file to restore').setInputFiles(file);
    await page.getByRole('alertdialog', { name: 'Replace all data with this backup?' }).waitFor();
    await screenshot(page, 'restore-confirm');
    await page.getByRole('button', { name: 'Replace my data' }).click();
    await page.getByText(/^Restored “otto-e2e-/).waitFor();

    const names = async (q: string) =>
      ((await apiFetch(page, `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: q }))}`)).json as { full_name: string }[]).map((c) => c.full_name);
    expect(await names('kept before')).toEqual(['Kept Before Backup']);
    expect(await names('added after')).toEqual([]);
    await page.reload();
    await waitForBackend(page);
    expect(await names('kept before')).toEqual(['Kept Before Backup']);
    expect(problems()).toEqual([]);
    await ctx.close();
  });

  it('refuses a damaged or foreign file in words and keeps the data as it was', async () => {
    const ctx = await newContext(browser);
    const { page, problems } = await openBiz(ctx);
    const before = (await apiFetch(page, '/api/customers')).headers['x-total-count'];
    const damaged = (await downloadBackup(page)).slice();
    for (let i = 8192; i < damaged.byteLength; i += 3) damaged[i] = 0x42;
    const cases: [string, Uint8Array, RegExp][] = [
      ['damaged.sqlite3', damaged, /This database is damaged, so it cannot be used .*Nothing was changed\./],
      ['customers.csv', new TextEncoder().encode('name,email\nAda,ada@example.com\n'.repeat(30)), /not a SQLite database/],
    ];
    for (const [name, bytes, message] of cases) {
      const file = join(tmpdir(), `otto-e2e-${Date.now()}-${name}`);
      writeFileSync(file, bytes);
      await page.getByRole('button', { name: 'Backup and export' }).click();
      await page.getByLabel('Backup file to restore').setInputFiles(file);
      await page.getByRole('button', { name: 'Replace my data' }).click();
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      await page.getByRole('button', { name: 'Close' }).click();
      expect((await apiFetch(page, '/api/customers')).headers['x-total-count']).toBe(before);
    }
    expect(problems()).toEqual([]);
    await ctx.close();
  });
});

describe('markup in data stays data', () => {
  it('shows HTML, script tags and javascript: URLs as text everywhere, with no policy violation', async () => {
    const ctx = await newContext(browser);
    const tab = await trackPage(await ctx.newPage());
    const { page } = tab;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
    });
    const response = await page.goto('/biz/customers');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
    await waitForBackend(page);
    const name = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
    const customer = await createCustomer(page, name, '"><script>window.__xss=3</script>@evil.example');
    const job = await apiFetch(page, '/api/jobs', {
      method: 'POST',
      body: { customer_id: customer.id, title: '<b onmouseover=alert(1)>Bold</b>', service_address: 'javascript:alert(document.cookie)' },
    });
    expect(job.status).toBe(200);

    await page.goto('/biz/customers?q=xss');
    await page.getByRole('link', { name }).waitFor();
    await page.goto(`/biz/customers/edit/${customer.id}`);
    await expect.poll(() => page.getByLabel('Full name').inputValue()).toBe(name);
    await page.getByRole('link', { name: '<b onmouseover=alert(1)>Bold</b>' }).click();
    await expect.poll(() => page.getByLabel('Service address').inputValue()).toBe('javascript:alert(document.cookie)');
    await screenshot(page, 'markup-as-text');

    await page.getByRole('button', { name: 'Backup and export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export customers (CSV)' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain(`"<img src=x onerror=""window.__xss=1""><script>window.__xss=2</script>"`);

    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(tab.problems()).toEqual([]);
    await ctx.close();
  });
});

describe('an update while tabs are open', () => {
  it('tells both tabs when two versions of Otto share the database, and keeps answering', async () => {
    const ctx = await newContext(browser);
    const oldTab = await openBiz(ctx);
    const version = await oldTab.page.evaluate(() => window.ottoAppVersion);
    expect(version).toMatch(/^0\.0\.0\+/);
    // The new tab gets a newer build: the same bundle with another build id.
    const newPage = await ctx.newPage();
    await newPage.route('**/assets/*.js', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replaceAll(version!, '0.0.1+newer');
      await route.fulfill({ response, body });
    });
    const newTab = await trackPage(newPage);
    await newPage.goto('/biz/customers');
    await waitForBackend(newPage);
    for (const page of [newTab.page, oldTab.page]) {
      await page.getByText('Two versions of Otto are open').waitFor();
    }
    await screenshot(newTab.page, 'two-versions');
    const created = await createCustomer(newTab.page, 'Made In The New Tab');
    expect((await apiFetch(oldTab.page, `/api/customers/${created.id}`)).status).toBe(200);
    expect([...oldTab.problems(), ...newTab.problems()]).toEqual([]);
    await ctx.close();
  });
});

describe('a crash in the middle of writes', () => {
  it('keeps every acknowledged write and a consistent database when the browser is killed', async () => {
    const dir = freshUserDataDir();
    try {
      let ctx = await launchPersistent(dir);
      let { page } = await openBiz(ctx);
      const acked: { id: string; i: number }[] = [];
      await page.exposeFunction('ottoAck', (id: string, i: number) => acked.push({ id, i }));
      void page
        .evaluate(async () => {
          for (let i = 0; i < 2000; i++) {
            const res = await fetch('/api/customers', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ full_name: `Burst ${i}`, email: `burst${i}@example.com`, phone: `555 ${i}` }),
            });
            const created = (await res.json()) as { id: string };
            await (window as unknown as { ottoAck(id: string, i: number): Promise<void> }).ottoAck(created.id, i);
          }
        })
        .catch(() => undefined);
      await expect.poll(() => acked.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(80);

      // SIGKILL the browser's main process: no shutdown, no flush.
      const pids = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes(`--user-data-dir=${dir}`) && !line.includes('--type='))
        .map((line) => Number(line.trim().split(/\s+/)[0]));
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      await ctx.close().catch(() => undefined);
      const ackedAtKill = acked.length;

      ctx = await launchPersistent(dir);
      ({ page } = await openBiz(ctx));
      const bytes = await downloadBackup(page);
      await ctx.close();

      await inspectDatabaseBytes(bytes); // integrity_check passes, or this throws
      const store = await openSqliteStore({ storage: 'memory', initialData: bytes });
      store.run("INSERT INTO customers_fts (customers_fts) VALUES ('integrity-check')");
      const rows = store.all<{ id: number; full_name: string; email: string; phone: string }>(
        "SELECT id, full_name, email, phone FROM customers WHERE full_name LIKE 'Burst %'",
      );
      const byId = new Map(rows.map((r) => [String(r.id), r]));
      for (const { id, i } of acked.slice(0, ackedAtKill)) {
        expect(byId.get(id), `acknowledged write ${i}`).toEqual({ id: Number(id), full_name: `Burst ${i}`, email: `burst${i}@example.com`, phone: `555 ${i}` });
      }
      // A write in flight at the kill is either all there or not at all.
      expect(rows.length - ackedAtKill).toBeLessThanOrEqual(1);
      for (const row of rows) expect(row.email).toBe(`burst${row.full_name.slice(6)}@example.com`);
      await store.close();
      console.info(`crash test: ${ackedAtKill} acknowledged writes before the kill, ${rows.length} rows after reopening`);
    } finally {
      removeUserDataDir(dir);
    }
  });
});
