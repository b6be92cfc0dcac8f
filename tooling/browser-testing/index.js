// What Otto's browser tests (apps/web/e2e) and benchmarks (bench/) share, so that both drive the
// same Chromium the same way and build service workers the same way.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';

/**
 * Debian's Chromium (`CHROMIUM_PATH`, else /usr/bin/chromium) headless, with the settings this
 * machine needs: no sandbox as root, no GPU, and none of Chromium's own network traffic (the
 * machine reaches no other host; without these flags Chromium's connections are refused, many at
 * a time). Never `playwright install`.
 */
export const chromiumLaunchOptions = {
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

/**
 * The Chromium the tests drive: Debian's `chromium-headless-shell` (`CHROMIUM_HEADLESS_SHELL_PATH`,
 * else /usr/bin/chromium-headless-shell when installed), else the full Chromium above. It is the
 * same Chromium (same package version, same Blink and V8) without the browser's own layer, as
 * Playwright runs headless by default; it took half the CPU of a first visit (decision 0041).
 * `npm test` installs it beside Chromium; the shared flows and the benchmarks keep the full browser.
 */
export function testChromiumPath() {
  const shell = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
  return existsSync(shell) ? shell : chromiumLaunchOptions.executablePath;
}

/**
 * A browser whose contexts keep nothing once closed: the full Chromium, or with `test` the
 * tests' Chromium (`testChromiumPath`).
 */
export function launchChromium({ test = false } = {}) {
  return chromium.launch(launchOptions(test));
}

/** A browser whose profile (OPFS, service workers) lives in `dir` and survives closing it (`test`: as launchChromium's). */
export function launchChromiumProfile(dir, { test = false, ...options } = {}) {
  return chromium.launchPersistentContext(dir, { ...launchOptions(test), ...options });
}

/** The launch options of the full Chromium, or of the tests' Chromium (`testChromiumPath`). */
function launchOptions(test) {
  return test ? { ...chromiumLaunchOptions, executablePath: testChromiumPath() } : chromiumLaunchOptions;
}

/** A fresh, empty profile directory; remove it with `removeProfileDir`. */
export function freshProfileDir(prefix = 'otto-profile-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeProfileDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Builds one module (a service worker) into one self-contained classic script with Vite, and
 * answers its code and the modules it was built from (to watch them).
 */
export async function buildClassicScript({ root, entry, fileName, conditions = [], minify = true, define = {} }) {
  const result = await build({
    configFile: false,
    envDir: false,
    logLevel: 'warn',
    root,
    publicDir: false,
    resolve: { conditions: [...conditions] },
    define,
    build: {
      write: false,
      minify,
      sourcemap: false,
      target: 'es2022',
      modulePreload: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      rollupOptions: { input: entry, output: { format: 'iife', entryFileNames: fileName } },
    },
  });
  for (const output of Array.isArray(result) ? result : [result]) {
    if (!('output' in output)) continue;
    for (const chunk of output.output) {
      if (chunk.type === 'chunk' && chunk.isEntry) return { code: chunk.code, moduleIds: [...chunk.moduleIds] };
    }
  }
  throw new Error(`Building ${entry} produced no script.`);
}
