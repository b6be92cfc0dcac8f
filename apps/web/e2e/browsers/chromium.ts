// Chromium (Debian's, through playwright-core and the DevTools protocol) behind the shared driver.
import { launchChromium } from '@otto/browser-testing';
import type { Page } from 'playwright-core';
import { NotClickedError, wrapExpression, type BrowserSession, type Tab } from './driver';

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
      // On the element marked for this click, not on the selector: when React replaced the element,
      // the selector never matches again (Playwright would wait for it), and the handle says so at
      // once ("not attached"): the click did not happen. Playwright waits out a covered element
      // itself (its hit-target check stops a click that would land elsewhere). Any other error (a
      // timeout on a busy machine, say) may come after the click took effect: it is not retried.
      click: async (selector) => {
        const handle = await page.$(selector);
        if (!handle) throw new NotClickedError(`No element matches ${selector}.`);
        try {
          await handle.click({ timeout: 30_000 });
        } catch (error) {
          if (/not attached to the DOM/i.test(String(error))) throw new NotClickedError(String(error));
          throw error;
        } finally {
          void handle.dispose().catch(() => undefined);
        }
      },
      type: (selector, text) => page.locator(selector).pressSequentially(text),
      press: (selector, key) => page.locator(selector).press(key),
      drag: async (from, to) => {
        const [a, b] = [await page.locator(from).boundingBox(), await page.locator(to).boundingBox()];
        if (!a || !b) throw new NotClickedError(`${from} or ${to} is not shown.`);
        await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
        await page.mouse.down();
        await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
        await page.mouse.up();
      },
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
