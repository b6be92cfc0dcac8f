// Profiles for the bench, on Debian's Chromium with the flags of the e2e tests (`@otto/browser-testing`).
import { freshProfileDir, launchChromiumProfile, removeProfileDir } from '@otto/browser-testing';
import type { BrowserContext } from 'playwright-core';

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
