import type { Browser, BrowserContext, BrowserContextOptions, LaunchOptions } from 'playwright-core';

/** Debian's Chromium headless with the flags this machine needs (see index.js). */
export declare const chromiumLaunchOptions: LaunchOptions;
/** Debian's chromium-headless-shell when installed (or CHROMIUM_HEADLESS_SHELL_PATH), else the full Chromium. */
export declare function testChromiumPath(): string;
/** A browser whose contexts keep nothing once closed (`test`: in `testChromiumPath()`). */
export declare function launchChromium(options?: { test?: boolean }): Promise<Browser>;
/** A browser whose profile (OPFS, service workers) lives in `dir` and survives closing it (`test`: as launchChromium's). */
export declare function launchChromiumProfile(dir: string, options?: BrowserContextOptions & { test?: boolean }): Promise<BrowserContext>;
/** A fresh, empty profile directory; remove it with `removeProfileDir`. */
export declare function freshProfileDir(prefix?: string): string;
export declare function removeProfileDir(dir: string): void;
/** Builds one module into one self-contained classic script with Vite. */
export declare function buildClassicScript(options: {
  root: string;
  entry: string;
  fileName: string;
  conditions?: readonly string[];
  minify?: boolean;
  define?: Record<string, string>;
}): Promise<{ code: string; moduleIds: string[] }>;
