// The disk really fills (issue 12, item 4): Chromium's quota for the app's origin is lowered
// through the DevTools protocol (Storage.overrideQuotaForOrigin) until OPFS refuses to grow the
// database. The write that cannot be stored answers 507 STORAGE_FULL and the form says so in words;
// everything acknowledged before is still there; once the quota is back, writes work again in the
// same tab, without a reload.
import { inspectDatabaseBytes, openSqliteStore } from '@otto/sqlite-store';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch, baseUrl, downloadBackup, launchBrowser, newContext, openPage, screenshot, waitForBackend } from './harness';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const usage = (page: Page) => page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);

function setQuota(cdp: CDPSession, quotaSize?: number) {
  return cdp.send('Storage.overrideQuotaForOrigin', { origin: baseUrl(), ...(quotaSize === undefined ? {} : { quotaSize }) });
}

async function createCustomer(page: Page, full_name: string) {
  return apiFetch(page, '/api/customers', { method: 'POST', body: { full_name, email: 'full@example.com', phone: '555 0100' }, timeoutMs: 30_000 });
}

describe('the disk fills up', () => {
  it('answers 507 in words, loses nothing acknowledged, and takes writes again once there is space', async () => {
    const ctx = await newContext(browser);
    const tab = await openPage(ctx, '/biz/customers');
    await waitForBackend(tab.page);
    // The refused write is logged by the browser as a failed resource load with status 507.
    tab.allow(/Failed to load resource.*507/, /Failed to open the database: the browser has no storage space left/);
    const page = tab.page;
    const cdp = await ctx.newCDPSession(page);

    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await createCustomer(page, `Diskfull before ${i}`);
      expect(res.status).toBe(200);
      acknowledged.push(`Diskfull before ${i}`);
    }

    // Lower the quota to what the origin uses now, then keep lowering it while writes still fit
    // (the database may have free pages, and Chromium grants OPFS space in chunks).
    let quota = await usage(page);
    await setQuota(cdp, quota);
    let refused: Awaited<ReturnType<typeof createCustomer>> | undefined;
    for (let i = 0; i < 400 && !refused; i++) {
      const name = `Diskfull filling ${i}`;
      const res = await createCustomer(page, name);
      if (res.status === 200) {
        acknowledged.push(name);
        if (i % 25 === 24) await setQuota(cdp, (quota = Math.floor(quota / 2)));
      } else {
        refused = res;
      }
    }
    expect(refused, 'no write was refused').toBeDefined();
    expect(refused?.status, refused?.text).toBe(507);
    expect(refused?.json).toMatchObject({ code: 'STORAGE_FULL', message: expect.stringContaining('refused to store more data') });
    console.log(`disk full: ${acknowledged.length} writes acknowledged, then 507 at a quota of ${quota} bytes (usage ${await usage(page)})`);

    // Reads still work, and show everything acknowledged.
    const listed = await apiFetch(page, `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: 'Diskfull', limit: 1000 }))}`);
    expect(listed.status).toBe(200);
    expect(new Set((listed.json as { full_name: string }[]).map((c) => c.full_name))).toEqual(new Set(acknowledged));

    // What a person sees: the new-customer form (reached without a reload) says, in words, that
    // nothing was saved and why, and keeps what was typed.
    await page.getByRole('link', { name: 'New customer' }).first().click();
    await page.getByLabel('Full name').fill('Ada Fullerton');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Phone').fill('555 0199');
    await page.getByRole('button', { name: 'Create customer' }).click();
    const refusal = page.getByText('The browser refused to store more data, so nothing was saved. Free some disk space, then try again.');
    await refusal.waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Full name').inputValue()).toBe('Ada Fullerton');
    await screenshot(page, 'disk-full-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await refusal.waitFor();
    await screenshot(page, 'disk-full-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Space comes back: the same form, submitted again in the same tab, saves; so do later writes.
    await setQuota(cdp);
    await page.getByRole('button', { name: 'Create customer' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/new'), { timeout: 30_000 });
    acknowledged.push('Ada Fullerton');
    for (let i = 0; i < 20; i++) {
      const res = await createCustomer(page, `Diskfull after ${i}`);
      expect(res.status, res.text).toBe(200);
      acknowledged.push(`Diskfull after ${i}`);
    }

    // Full again, and the app is reloaded: it cannot open its data, and says so (instead of
    // quietly working in memory and losing what is typed); with space back, a reload opens it.
    await setQuota(cdp, await usage(page));
    await page.reload();
    await page.getByText('The device has no room left for Otto to open its data.').waitFor({ timeout: 30_000 });
    await screenshot(page, 'disk-full-at-start-1280');
    await setQuota(cdp);
    await page.reload();
    await waitForBackend(page);
    expect(await page.evaluate(() => window.ottoBackendStatus?.().storage)).toBe('opfs');

    // The database is whole: integrity check, and every acknowledged write in it.
    const backup = (await downloadBackup(page)).bytes;
    const info = await inspectDatabaseBytes(backup);
    expect(info.userVersion).toBeGreaterThan(0);
    const store = await openSqliteStore({ storage: 'memory', initialData: backup });
    try {
      expect(store.all<{ integrity_check: string }>('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const names = new Set(store.all<{ full_name: string }>("SELECT full_name FROM customers WHERE full_name LIKE 'Diskfull%' OR full_name = 'Ada Fullerton'").map((r) => r.full_name));
      expect(acknowledged.filter((name) => !names.has(name))).toEqual([]);
      expect(names.size).toBe(acknowledged.length);
    } finally {
      await store.close();
    }
    expect(tab.problems()).toEqual([]);
    await ctx.close();
  });
});
