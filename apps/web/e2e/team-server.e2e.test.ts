// A team on one PostgreSQL: two otto-mock-server processes share a database, the web app (remote
// mode) runs against each, and a change made in a tab of one shows in a tab of the other without a
// reload (the second server's change feed, fed by PostgreSQL NOTIFY from the first).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres } from '@otto/postgres-testing/vitest';
import { screenshot, useBrowserSession, type TrackedPage } from './harness';
import { serveRemoteApp, type RemoteApp } from './remote-app';
import { startServer, type ServerProcess } from './server-process';

const wait = { timeout: 15_000 };

/** The "40 customers" line under the list. */
const listSummary = (page: Page) => page.locator('.otto-pagination__summary');

async function customerCount(page: Page): Promise<number> {
  return Number(((await listSummary(page).textContent(wait)) ?? '').replace(/\D/g, ''));
}

describeIfPostgres('two otto-mock-servers on one PostgreSQL, the app in remote mode against each', () => {
  const session = useBrowserSession();
  let pg: TestPostgres | undefined;
  const servers: ServerProcess[] = [];
  const sites: RemoteApp[] = [];

  beforeAll(async () => {
    pg = await startTestPostgres();
    // One after the other: the first creates the schema and seeds 40 customers, the second finds them.
    servers.push(await startServer(pg.connectionString, 'server 1'));
    servers.push(await startServer(pg.connectionString, 'server 2'));
    // The API's address is built into the app: one build per server.
    for (const server of servers) sites.push(await serveRemoteApp(server.url));
  }, 240_000);

  afterAll(async () => {
    const results = await Promise.allSettled([...sites.map((site) => site.close()), ...servers.map((server) => server.stop())]);
    const stopped = await Promise.allSettled([pg?.stop()]);
    for (const result of [...results, ...stopped]) if (result.status === 'rejected') throw result.reason;
  });

  /** A tab (its own browser context) on app `i`'s customer list, once the list has loaded; marked so a reload would show. */
  async function openList(i: 0 | 1): Promise<TrackedPage> {
    const site = sites[i] as RemoteApp;
    const tab = await session.open('/biz/customers', { baseURL: site.url, waitForBackend: false, viewport: { width: 1280, height: 800 } });
    await listSummary(tab.page).waitFor(wait);
    await tab.page.evaluate(() => {
      (window as unknown as { ottoNotReloaded?: boolean }).ottoNotReloaded = true;
    });
    return tab;
  }

  const notReloaded = (page: Page) => page.evaluate(() => (window as unknown as { ottoNotReloaded?: boolean }).ottoNotReloaded === true);

  it('shows a customer created in a tab of server 1 in a tab of server 2, and an edit made there back in the first', async () => {
    const [server1, server2] = servers as [ServerProcess, ServerProcess];
    expect(server1.url).not.toBe(server2.url);
    const a = (await openList(0)).page;
    const b = (await openList(1)).page;

    // Each tab talks to its own server only.
    const origin = (url: string) => new URL(url).origin;
    const calls: Record<'a' | 'b', string[]> = { a: [], b: [] };
    a.on('request', (request) => calls.a.push(request.url()));
    b.on('request', (request) => calls.b.push(request.url()));

    const before = await customerCount(b);
    expect(before).toBe(40);
    expect(await customerCount(a)).toBe(before);

    // Tab A (server 1): create a customer through the form.
    await a.getByRole('link', { name: 'New customer' }).click();
    await a.getByLabel('Full name').fill('Teamwork Across Servers');
    await a.getByLabel('Email').fill('teamwork@example.com');
    await a.getByLabel('Phone').fill('555 0199');
    await a.getByRole('button', { name: 'Create customer' }).click();
    await a.getByText('Teamwork Across Servers was added.').waitFor(wait);
    await a.waitForURL(/\/biz\/customers\/edit\/\d+$/);

    // Tab B (server 2) shows it, without a reload.
    await b.getByRole('link', { name: 'Teamwork Across Servers', exact: true }).waitFor(wait);
    await expect.poll(() => customerCount(b), wait).toBe(before + 1);
    expect(await notReloaded(b)).toBe(true);
    const shot = await screenshot(b, 'team-server-created-on-the-other-server');
    console.log(`screenshot of tab B: ${shot}`);

    // Tab B (server 2): rename it; tab A (server 1), still on the customer it created, follows.
    await b.getByRole('link', { name: 'Teamwork Across Servers', exact: true }).click();
    await b.getByLabel('Full name').fill('Teamwork Renamed On Server 2');
    await b.getByRole('button', { name: 'Save changes' }).click();
    await b.getByText('Changes to Teamwork Renamed On Server 2 were saved.').waitFor(wait);

    // The heading follows at once; the form says the customer was changed elsewhere and loads the
    // new version when asked (the app never replaces a form's contents in silence).
    await a.getByRole('heading', { level: 1, name: 'Teamwork Renamed On Server 2' }).waitFor(wait);
    await a.getByText('This customer was changed elsewhere (by someone else, or in another tab)', { exact: true }).waitFor(wait);
    // The notice as a person sees it, on a desktop and on a phone.
    await screenshot(a, 'team-server-changed-elsewhere-desktop');
    const desktop = a.viewportSize();
    await a.setViewportSize({ width: 375, height: 800 });
    await screenshot(a, 'team-server-changed-elsewhere-phone');
    if (desktop) await a.setViewportSize(desktop);
    await a.getByRole('button', { name: 'Load the new version' }).click();
    await expect.poll(() => a.getByLabel('Full name').inputValue(), wait).toBe('Teamwork Renamed On Server 2');
    expect(await notReloaded(a)).toBe(true);

    const apiCalls = (urls: string[]) => urls.filter((url) => url.includes('/api/')).map(origin);
    expect(new Set(apiCalls(calls.a))).toEqual(new Set([origin(server1.url)]));
    expect(new Set(apiCalls(calls.b))).toEqual(new Set([origin(server2.url)]));
  });
});
