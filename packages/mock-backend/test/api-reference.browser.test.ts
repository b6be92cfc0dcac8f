// The API reference page of otto-mock-server, rendered by a real Chromium.
import type { OpenApiDocument } from '@otto/api-contract';
import { launchChromium } from '@otto/browser-testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/node';
import { capturingLogger } from './helpers';

let server: MockServer;
let browser: Browser;

beforeAll(async () => {
  server = await createMockServer({ port: 0, seed: { count: 5, fakerSeed: 2 }, logger: capturingLogger().logger });
  browser = await launchChromium({ test: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('GET /api/docs in Chromium', () => {
  it('lists every operation of the document, each reachable from the navigation, with nothing loaded from elsewhere', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiDocument;
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, id: (op as { operationId: string }).operationId, path })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(11);

    const page = await browser.newPage();
    const problems: string[] = [];
    const requested: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => requested.push(request.url()));
    page.on('response', (answer) => {
      if (answer.status() >= 400) problems.push(`${answer.status()} ${answer.url()}`);
    });

    const response = await page.goto(`${server.url}/docs`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe(`Otto API ${document.info.version}: API reference`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Otto API');

    for (const { key, id, path } of operations) {
      const section = page.locator(`section[data-operation="${key}"]`);
      expect(await section.count(), key).toBe(1);
      expect(await section.isVisible(), key).toBe(true);
      const [method] = key.split(' ');
      expect(await section.getByRole('heading', { level: 3 }).innerText()).toBe(`${method} /api${path}`);
      const link = page.getByRole('navigation').locator(`a[href="#op-${id}"]`);
      expect(await link.innerText()).toBe(`${method} ${path}`);
    }
    expect(await page.locator('section[data-operation]').count()).toBe(operations.length);
    for (const name of Object.keys(document.components.schemas)) {
      expect(await page.locator(`#schema-${name}`).isVisible(), name).toBe(true);
    }
    // The spec's exceptions are on the page, in words.
    await expect.poll(() => page.locator('main').innerText()).toContain('Requests that match no operation');
    expect(await page.locator('section[data-operation="POST /customers"]').innerText()).toMatch(/or null when the body failed the shape check/);
    expect(await page.locator('section[data-operation="GET /customers"]').innerText()).toContain('header X-Total-Count');

    await page.getByRole('navigation').locator('a[href="#op-jobsPatch"]').click();
    expect(new URL(page.url()).hash).toBe('#op-jobsPatch');
    expect(await page.locator('#op-jobsPatch').isVisible()).toBe(true);

    expect(problems).toEqual([]);
    expect(requested.length).toBe(1);
    expect(requested.every((url) => url.startsWith(`${new URL(server.url).origin}/api/`)), requested.join('\n')).toBe(true);

    // The link to the document (the browser then asks for a favicon of its JSON view: not ours).
    await page.getByRole('link', { name: '/api/openapi.json' }).click();
    await page.waitForURL(`${server.url}/openapi.json`);
    expect(JSON.parse(await page.locator('body').innerText())).toEqual(document);

    await page.close();
  });
});
