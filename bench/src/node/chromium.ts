// Profiles for the bench, on Debian's Chromium with the flags of the e2e tests (`@otto/browser-testing`).
import { freshProfileDir, launchChromiumProfile, removeProfileDir } from '@otto/browser-testing';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { serveApp } from './app-server';

const appRoot = fileURLToPath(new URL('../../../apps/web/', import.meta.url));

/** A fresh, empty profile directory (OPFS and service workers live on disk, as for a real user). */
export function freshProfile(): string {
  return freshProfileDir('otto-bench-profile-');
}

export function removeProfile(dir: string): void {
  removeProfileDir(dir);
}

export function launchProfile(dir: string): Promise<BrowserContext> {
  return launchChromiumProfile(dir);
}

/**
 * Serves the production app (apps/web/dist), opens /biz/customers in a fresh profile, waits for its
 * first customer row and for the service worker to control the page, and hands the page to `run`;
 * everything is closed and removed after.
 */
export async function withAppPage<T>(run: (page: Page) => Promise<T>): Promise<T> {
  const server = await serveApp(appRoot);
  const profile = freshProfile();
  const context = await launchProfile(profile);
  try {
    const page = await context.newPage();
    await page.goto(`${server.origin}/biz/customers`);
    await page.getByRole('table').getByRole('row').nth(1).waitFor({ timeout: 120_000 });
    // A first visit's page is not controlled until the service worker it registers has claimed it
    // (decision 0008): until then the app talks to the DB worker without it. Wait, so that what is
    // timed takes the whole path.
    await page.waitForFunction(() => Boolean(navigator.serviceWorker?.controller), undefined, { timeout: 60_000 });
    return await run(page);
  } finally {
    await context.close();
    removeProfile(profile);
    await server.close();
  }
}
