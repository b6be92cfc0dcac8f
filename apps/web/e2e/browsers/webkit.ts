// WebKitGTK: Debian's MiniBrowser, driven by WebKitWebDriver (classic W3C WebDriver; WebKitGTK
// has no WebDriver BiDi) through the `webdriver` client, on an Xvfb display started here
// (MiniBrowser has no headless mode).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { freePort } from '@otto/postgres-testing';
import WebDriver from 'webdriver';
import { takeWatchedProblems } from './console-watch';
import { NotClickedError, wrapExpression, type BrowserSession, type Tab } from './driver';

/** Where Debian's webkit2gtk-driver puts MiniBrowser (`MINIBROWSER_PATH` overrides). */
export const miniBrowserPath =
  process.env.MINIBROWSER_PATH ??
  ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser'].find((p) => existsSync(p)) ??
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const elementKey = 'element-6066-11e4-a52e-4f735466cecf';

/** An X display of its own (`Xvfb -displayfd`), so that nothing is shown and runs do not collide. */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const display = await new Promise<string>((resolve, reject) => {
    xvfb.once('error', (error) => reject(new Error(`Xvfb could not start (${error.message}); install Debian's xvfb.`)));
    xvfb.once('exit', (code) => reject(new Error(`Xvfb ended at once (exit ${code}).`)));
    xvfb.stdout!.once('data', (data: Buffer) => resolve(`:${String(data).trim()}`));
  });
  return { display, process: xvfb };
}

async function waitForDriver(port: number, driver: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver ended at once (exit ${driver.exitCode}).`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/status`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('WebKitWebDriver did not answer within 20 s.');
}

export async function launchWebKitSession(origin: string): Promise<BrowserSession> {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
  const stopAll = () => {
    driver.kill();
    xvfb.process.kill();
  };
  try {
    await waitForDriver(port, driver);
    const client = await WebDriver.newSession({
      hostname: '127.0.0.1',
      port,
      logLevel: 'error',
      // The client sends a request again when the answer is an error; after a click that may have
      // taken effect (Screen clicks again only on NotClickedError), so never.
      connectionRetryCount: 0,
      capabilities: {
        browserName: 'MiniBrowser',
        // WebKitWebDriver speaks classic WebDriver only: do not ask for a BiDi socket.
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] },
      } as WebdriverIO.Capabilities,
    });
    await client.setWindowRect(null, null, 1280, 800);
    const version = String((client.capabilities as { browserVersion?: string }).browserVersion ?? '');
    let current = await client.getWindowHandle();
    let unusedFirstWindow: string | undefined = current;

    const tabOf = (handle: string): Tab => {
      const use = async () => {
        if (current !== handle) {
          await client.switchToWindow(handle);
          current = handle;
        }
      };
      const element = async (selector: string): Promise<string> => {
        const found = (await client.findElement('css selector', selector)) as Record<string, string>;
        const id = found[elementKey];
        if (!id) throw new NotClickedError(`No element matches ${selector}.`);
        return id;
      };
      const tab: Tab = {
        goto: async (path) => {
          await use();
          await client.navigateTo(new URL(path, origin).href);
        },
        reload: async () => {
          await use();
          await client.refresh();
        },
        url: async () => {
          await use();
          return new URL(await client.getUrl());
        },
        run: async <T>(expression: string) => {
          await use();
          const result = (await client.executeAsyncScript(
            `const done = arguments[arguments.length - 1];
             ${wrapExpression(expression)}.then((value) => done({ ok: value }), (error) => done({ error: String((error && error.message) || error) }));`,
            [],
          )) as { ok?: T; error?: string };
          if (result.error !== undefined) throw new Error(result.error);
          return result.ok as T;
        },
        // WebDriver answers "stale element reference" (replaced) and "element click intercepted"
        // (covered) without clicking: those are safe to try again.
        click: async (selector) => {
          await use();
          try {
            await client.elementClick(await element(selector));
          } catch (error) {
            if (/stale element reference|element click intercepted|element not interactable|no such element/i.test(String(error))) throw new NotClickedError(String(error));
            throw error;
          }
        },
        type: async (selector, text) => {
          await use();
          await client.elementSendKeys(await element(selector), text);
        },
        // WebDriver's own codes for the keys (the specification's key table).
        press: async (selector, key) => {
          await use();
          const codes = { ArrowLeft: '\uE012', ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015', Enter: '\uE007' };
          await client.elementSendKeys(await element(selector), codes[key]);
        },
        // WebDriver's pointer actions, from the centre of one element to the other's.
        drag: async (from, to) => {
          await use();
          const origin = async (selector: string) => ({ [elementKey]: await element(selector) });
          const [a, b] = [await origin(from), await origin(to)];
          await client.performActions([
            {
              type: 'pointer',
              id: 'mouse',
              parameters: { pointerType: 'mouse' },
              actions: [
                { type: 'pointerMove', duration: 0, origin: a, x: 0, y: 0 },
                { type: 'pointerDown', button: 0 },
                { type: 'pointerMove', duration: 100, origin: a, x: 8, y: 4 },
                { type: 'pointerMove', duration: 400, origin: b, x: 0, y: 0 },
                { type: 'pointerUp', button: 0 },
              ],
            },
          ]);
          await client.releaseActions();
        },
        screenshot: async (path) => {
          await use();
          writeFileSync(path, Buffer.from(await client.takeScreenshot(), 'base64'));
        },
        // Classic WebDriver has no console events: the pages keep their own (console-watch.ts).
        takeProblems: () => tab.run<string[]>(takeWatchedProblems),
        close: async () => {
          await use();
          // Closing the last window would end the WebDriver session: the last one is emptied and reused.
          if ((await client.getWindowHandles()).length === 1) {
            await client.navigateTo('about:blank');
            unusedFirstWindow = handle;
            return;
          }
          await client.closeWindow();
          const left = await client.getWindowHandles();
          current = left[0] ?? '';
          if (current) await client.switchToWindow(current);
        },
      };
      return tab;
    };
    return {
      name: 'webkit',
      label: `WebKitGTK ${version} (MiniBrowser)`,
      origin,
      newTab: async () => {
        if (unusedFirstWindow) {
          const handle = unusedFirstWindow;
          unusedFirstWindow = undefined;
          return tabOf(handle);
        }
        const { handle } = (await client.createWindow('tab')) as { handle: string };
        return tabOf(handle);
      },
      close: async () => {
        try {
          await client.deleteSession();
        } finally {
          stopAll();
        }
      },
    };
  } catch (error) {
    stopAll();
    throw error;
  }
}
