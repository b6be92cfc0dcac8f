// Nothing a user or the browser does loses data: backup and checked restore, markup that stays
// text under a strict Content-Security-Policy, and a browser killed in the middle of a burst of writes.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  opfsFolderFiles,
  removeUserDataDir,
  screenshot,
  trackPage,
  waitForBackend,
  downloadBackup as downloadFromApp,
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

/** A backup downloaded from the app, under the name the app gives it. */
async function downloadBackup(page: Page): Promise<Uint8Array> {
  const { bytes, filename } = await downloadFromApp(page);
  expect(filename).toMatch(/^otto-backup-\d{4}-\d{2}-\d{2}\.sqlite3$/);
  return bytes;
}

/** Every row of the data tables and their search indexes in a database file, in rowid order. */
async function rowsOf(bytes: Uint8Array): Promise<Record<string, unknown[]>> {
  const store = await openSqliteStore({ storage: 'memory', initialData: bytes });
  try {
    const tables = ['customers', 'customers_fts', 'jobs', 'jobs_fts'];
    return Object.fromEntries(tables.map((table) => [table, store.all(`SELECT rowid, * FROM ${table} ORDER BY rowid`)]));
  } finally {
    await store.close();
  }
}

/**
 * The bytes a restore's check left in OPFS: the files of its scratch pool (`.otto-check`) beyond
 * their 4 KB headers. 0 once a check has settled, whatever it found.
 */
async function scratchBytesLeft(page: Page): Promise<number> {
  return (await opfsFolderFiles(page, '.otto-check')).reduce((left, file) => left + Math.max(0, file.size - 4096), 0);
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
    await page.getByRole('button', { name: 'Backup and export' }).click();
    await page.getByLabel('Backup file to restore').setInputFiles({ name: `otto-e2e-${Date.now()}.sqlite3`, mimeType: 'application/vnd.sqlite3', buffer: Buffer.from(backup) });
    await page.getByRole('alertdialog', { name: 'Replace all data with this backup?' }).waitFor();
    await screenshot(page, 'restore-confirm');
    await page.getByRole('button', { name: 'Replace my data' }).click();
    await page.getByText(/^Restored “otto-e2e-/).waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    // The backup was checked in a scratch file of OPFS (never whole in memory), which is gone now.
    expect(await page.evaluate(() => navigator.storage.getDirectory().then((root) => root.getDirectoryHandle('.otto-check')).then(() => true))).toBe(true);
    expect(await scratchBytesLeft(page)).toBe(0);

    const names = async (q: string) =>
      ((await apiFetch(page, `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: q }))}`)).json as { full_name: string }[]).map((c) => c.full_name);
    expect(await names('kept before')).toEqual(['Kept Before Backup']);
    expect(await names('added after')).toEqual([]);
    // Exactly the backup's data: every row of every table, search indexes included.
    const backupRows = await rowsOf(backup);
    expect(backupRows.customers).toHaveLength(501);
    expect(await rowsOf(await downloadBackup(page))).toEqual(backupRows);
    await page.reload();
    await waitForBackend(page);
    expect(await names('kept before')).toEqual(['Kept Before Backup']);
    expect(await rowsOf(await downloadBackup(page))).toEqual(backupRows);
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
      await page.getByRole('button', { name: 'Backup and export' }).click();
      await page.getByLabel('Backup file to restore').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
      await page.getByRole('button', { name: 'Replace my data' }).click();
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      await page.getByRole('button', { name: 'Close' }).click();
      expect((await apiFetch(page, '/api/customers')).headers['x-total-count']).toBe(before);
      expect(await scratchBytesLeft(page)).toBe(0);
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
    // Exactly this directive: no inline script, no eval.
    expect(response?.headers()['content-security-policy']?.split('; ')).toContain("script-src 'self' 'wasm-unsafe-eval'");
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

// Two builds in two tabs (a newer one takes the database over): e2e/updates.e2e.test.ts.

describe('a crash in the middle of writes', () => {
  it('keeps every acknowledged write and a consistent database when the browser is killed', async () => {
    const dir = freshUserDataDir();
    try {
      let ctx = await launchPersistent(dir);
      let { page } = await openBiz(ctx);
      // The page reports each create before it sends it and after it is acknowledged; four lanes
      // keep several creates in flight at any moment, so the kill lands in the middle of some.
      const sent = new Set<number>();
      const acked: { id: string; i: number }[] = [];
      await page.exposeFunction('ottoSent', (i: number) => void sent.add(i));
      await page.exposeFunction('ottoAck', (id: string, i: number) => acked.push({ id, i }));
      void page
        .evaluate(async () => {
          const w = window as unknown as { ottoSent(i: number): Promise<void>; ottoAck(id: string, i: number): Promise<void> };
          let next = 0;
          const lane = async () => {
            while (next < 2000) {
              const i = next++;
              await w.ottoSent(i);
              const res = await fetch('/api/customers', {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ full_name: `Burst ${i}`, email: `burst${i}@example.com`, phone: `555 ${i}` }),
              });
              const created = (await res.json()) as { id: string };
              // Not awaited: the next create is reported right behind this ack, so a lane is never
              // idle from Node's point of view and the kill always finds some in flight.
              void w.ottoAck(created.id, i);
            }
          };
          await Promise.all([lane(), lane(), lane(), lane()]);
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
      const ackedAtKill = acked.slice();
      const ackedIndexes = new Set(ackedAtKill.map(({ i }) => i));
      const inFlight = [...sent].filter((i) => !ackedIndexes.has(i));
      // The kill interrupted writes: some were sent and never acknowledged.
      expect(inFlight.length).toBeGreaterThan(0);

      ctx = await launchPersistent(dir);
      ({ page } = await openBiz(ctx));
      const bytes = await downloadBackup(page);
      await ctx.close();

      await inspectDatabaseBytes(bytes); // integrity_check passes, or this throws
      const store = await openSqliteStore({ storage: 'memory', initialData: bytes });
      store.run("INSERT INTO customers_fts (customers_fts) VALUES ('integrity-check')");
      const rows = store.all<{ id: number; full_name: string; email: string; phone: string; customer_text: string | null }>(
        `SELECT c.id, c.full_name, c.email, c.phone, f.customer_text
         FROM customers c LEFT JOIN customers_fts f ON f.rowid = c.id WHERE c.full_name LIKE 'Burst %'`,
      );
      await store.close();
      const whole = (id: number, i: number) => ({
        id,
        full_name: `Burst ${i}`,
        email: `burst${i}@example.com`,
        phone: `555 ${i}`,
        customer_text: `Burst ${i} burst${i}@example.com 555 ${i}`,
      });
      const byName = new Map(rows.map((row) => [row.full_name, row]));
      expect(byName.size, 'one row per create').toBe(rows.length);
      // Every acknowledged write is there, exactly as sent, with its search entry.
      for (const { id, i } of ackedAtKill) expect(byName.get(`Burst ${i}`), `acknowledged write ${i}`).toEqual(whole(Number(id), i));
      // Every write in flight is wholly there (row and search entry, as sent) or wholly absent.
      const landed = inFlight.filter((i) => byName.has(`Burst ${i}`));
      for (const i of landed) {
        const row = byName.get(`Burst ${i}`)!;
        expect(row, `write ${i}, in flight at the kill`).toEqual(whole(row.id, i));
      }
      // Nothing else: no row for a create that was never sent.
      expect(rows).toHaveLength(ackedAtKill.length + landed.length);
      console.info(
        `crash test: ${ackedAtKill.length} acknowledged before the kill, ${inFlight.length} in flight (${landed.length} of them landed), ${rows.length} rows after reopening`,
      );
    } finally {
      removeUserDataDir(dir);
    }
  });
});
