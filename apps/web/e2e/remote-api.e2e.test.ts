// One setting points the app at a remote API: a build with VITE_OTTO_API_BASE_URL calls the
// Otto mock server over HTTP (CORS) and starts no service worker or database in the browser. The
// server wants a token (VITE_OTTO_API_TOKEN): the app sends it on every call and on the change feed.
import { createMockServer, type MockServer } from '@otto/mock-backend/node';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, trackPage } from './harness';
import { serveRemoteApp, type RemoteApp } from './remote-app';

let server: MockServer;
let site: RemoteApp;
let siteUrl: string;
let browser: Browser;
const token = 'remote-e2e-token-7f3a';
const auth = { headers: { authorization: `Bearer ${token}` } };

beforeAll(async () => {
  server = await createMockServer({ port: 0, seed: { count: 25, fakerSeed: 8 }, token });
  site = await serveRemoteApp(server.url, token);
  siteUrl = site.url;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await server?.close();
});

describe('the app built with VITE_OTTO_API_BASE_URL', () => {
  it('lists and creates customers on the remote server, with no service worker in the browser', async () => {
    const context = await browser.newContext({ baseURL: siteUrl });
    try {
      const tab = await trackPage(await context.newPage());
      const apiHosts = new Set<string>();
      tab.page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/')) apiHosts.add(new URL(request.url()).origin);
      });
      await tab.page.goto('/biz/customers');
      const newest = ((await (await fetch(`${server.url}/customers`, auth)).json()) as { full_name: string }[])[0];
      await expect.poll(() => tab.page.getByText(newest!.full_name, { exact: true }).count(), { timeout: 20_000 }).toBe(1);
      expect(await tab.page.evaluate(() => window.ottoBackendStatus?.())).toEqual({ role: 'remote', storage: 'remote' });
      expect(await tab.page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
      expect([...apiHosts]).toEqual([new URL(server.url).origin]);

      await tab.page.getByRole('link', { name: 'New customer' }).click();
      await tab.page.getByLabel('Full name').fill('Remote Rita');
      await tab.page.getByLabel('Email').fill('rita@remote.example');
      await tab.page.getByLabel('Phone').fill('555 0199');
      await tab.page.getByRole('button', { name: 'Create customer' }).click();
      const filter = encodeURIComponent(JSON.stringify({ queryText: 'remote rita' }));
      await expect
        .poll(async () => ((await (await fetch(`${server.url}/customers?filterJson=${filter}`, auth)).json()) as unknown[]).length, { timeout: 10_000 })
        .toBe(1);
      // The change feed carries the token too: a customer added on the server by someone else shows up.
      await tab.page.getByRole('link', { name: 'Customers', exact: true }).first().click();
      const added = await fetch(`${server.url}/customers`, {
        method: 'POST',
        headers: { ...auth.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ full_name: 'Feed Fenna', email: 'fenna@remote.example', phone: '555 0142' }),
      });
      expect(added.status).toBe(200);
      await tab.page.getByRole('link', { name: 'Feed Fenna', exact: true }).waitFor({ timeout: 10_000 });
      await screenshot(tab.page, 'remote-api');
      expect(tab.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says in words when the server cannot be reached, keeps what was typed, and carries on when it is back', async () => {
    const context = await browser.newContext({ baseURL: siteUrl });
    try {
      const tab = await trackPage(await context.newPage());
      tab.allow(/ERR_CONNECTION_REFUSED|Failed to load resource|EventSource/);
      await tab.page.goto('/biz/customers/new');
      await tab.page.getByLabel('Full name').fill('Remote Rosa');
      await tab.page.getByLabel('Email').fill('rosa@remote.example');
      await tab.page.getByLabel('Phone').fill('555 0177');

      const port = Number(new URL(server.url).port);
      await server.close();
      await tab.page.getByRole('button', { name: 'Create customer' }).click();
      await tab.page.getByText('Otto cannot reach its server').waitFor();
      await tab.page.getByText(/Otto could not reach its server \(127\.0\.0\.1:\d+\)/).waitFor();
      expect(await tab.page.getByLabel('Full name').inputValue()).toBe('Remote Rosa');
      await screenshot(tab.page, 'remote-unreachable');

      server = await createMockServer({ port, seed: { count: 25, fakerSeed: 8 }, token });
      await expect.poll(() => tab.page.getByText('Otto cannot reach its server').count(), { timeout: 20_000 }).toBe(0);
      await tab.page.getByRole('button', { name: 'Create customer' }).click();
      await tab.page.getByText('Remote Rosa was added.').waitFor();
      expect(tab.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says in words which setting to check when the server refuses the build’s token, and keeps what was typed', async () => {
    // The same server, and a build carrying another token than the one it was started with.
    const wrong = await serveRemoteApp(server.url, 'not-the-server-token');
    const context = await browser.newContext({ baseURL: wrong.url });
    try {
      const tab = await trackPage(await context.newPage());
      tab.allow(/401|Unauthorized|Failed to load resource|EventSource/);
      await tab.page.goto('/biz/customers');
      await tab.page.getByText(/did not accept Otto's token: VITE_OTTO_API_TOKEN in this build is not the token the server was started with/).waitFor({ timeout: 20_000 });
      await tab.page.goto('/biz/customers/new');
      await tab.page.getByLabel('Full name').fill('Token Tess');
      await tab.page.getByLabel('Email').fill('tess@remote.example');
      await tab.page.getByLabel('Phone').fill('555 0133');
      await tab.page.getByRole('button', { name: 'Create customer' }).click();
      await tab.page.getByText(/did not accept Otto's token/).first().waitFor();
      expect(await tab.page.getByLabel('Full name').inputValue()).toBe('Token Tess');
      expect(await tab.page.getByLabel('Email').inputValue()).toBe('tess@remote.example');
      await screenshot(tab.page, 'remote-wrong-token');
      const filter = encodeURIComponent(JSON.stringify({ queryText: 'token tess' }));
      expect(((await (await fetch(`${server.url}/customers?filterJson=${filter}`, auth)).json()) as unknown[]).length).toBe(0);
      expect(tab.problems()).toEqual([]);
    } finally {
      await context.close();
      await wrong.close();
    }
  });
});
