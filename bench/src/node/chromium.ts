import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium with the flags of the e2e tests (apps/web/e2e/harness.ts). Never `playwright install`. */
export const launchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** A fresh, empty profile directory (OPFS and service workers live on disk, as for a real user). */
export function freshProfile(): string {
  return mkdtempSync(join(tmpdir(), 'otto-bench-profile-'));
}

export function removeProfile(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function launchProfile(dir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, launchOptions);
}
