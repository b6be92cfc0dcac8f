// Chromium (Debian's, through playwright-core and the DevTools protocol) behind the shared driver.
import { launchChromium } from '@otto/browser-testing';
import type { Page } from 'playwright-core';
import { wrapExpression, type BrowserSession, type Tab } from './driver';

export async function launchChromiumSession(origin: string): Promise<BrowserSession> {
  const browser = await launchChromium();
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 } });
  const tabOf = (page: Page): Tab => {
    // As trackPage (harness.ts) does: console errors (the page's and its workers'), uncaught errors, a crash.
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console.error: ${message.text()}${message.location().url ? ` (${message.location().url})` : ''}`);
    });
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.stack ?? error.message}`));
    page.on('crash', () => problems.push('the page crashed'));
    return {
      goto: async (path) => void (await page.goto(path)),
      reload: async () => void (await page.reload()),
      url: async () => new URL(page.url()),
      run: <T>(expression: string) => page.evaluate(wrapExpression(expression)) as Promise<T>,
      // Short: Screen.act finds the element again when React replaced the one it marked (the kept
      // first screen's button, say), where Playwright would wait its default 30 s for it to return.
      click: (selector) => page.click(selector, { timeout: 2_000 }),
      type: (selector, text) => page.locator(selector).pressSequentially(text),
      screenshot: async (path) => void (await page.screenshot({ path })),
      takeProblems: async () => problems.splice(0),
      close: () => page.close(),
    };
  };
  return {
    name: 'chromium',
    label: `Chromium ${browser.version()}`,
    origin,
    newTab: async () => tabOf(await context.newPage()),
    close: () => browser.close(),
  };
}
