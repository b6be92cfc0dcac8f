/* global process, URL, Request */
// Renders the first visit's screen at build time (decision 0009), in a Node process of its own:
// the app's /biz/customers in jsdom, its API answered by the mock API over the same first-start
// data as otto-seed.sqlite3.gz (the same faker seed and the same moment), and prints it as JSON:
// { generatedAt, html, answer } (answer: the list's answer the screen shows). Every date in the HTML is a token (`⁣otto-date|options|epoch ms⁣`) that
// public/kept-screen.js formats in the visitor's locale and time zone, moved to the moment of
// seeding, as the database will hold them.
// Usage: node build/render-seed-screen.mjs <generatedAt> <count> <fakerSeed>
import { JSDOM } from 'jsdom';

const [generatedAt, count, fakerSeed] = process.argv.slice(2).map(Number);
if (!Number.isFinite(generatedAt) || !Number.isFinite(count) || !Number.isFinite(fakerSeed)) {
  throw new Error('Usage: node build/render-seed-screen.mjs <generatedAt> <count> <fakerSeed>');
}

// Dates as tokens: the formatters the app makes (lib/format.ts) keep their options, as JSON.
const tokenSeparator = '\u2063';
const RealDateTimeFormat = Intl.DateTimeFormat;
class TokenDateTimeFormat {
  constructor(_locales, options = {}) {
    this.options = options;
  }
  format(date) {
    return `${tokenSeparator}otto-date|${JSON.stringify(this.options)}|${Number(date)}${tokenSeparator}`;
  }
  resolvedOptions() {
    return new RealDateTimeFormat('en-US', this.options).resolvedOptions();
  }
}
Intl.DateTimeFormat = TokenDateTimeFormat;
// Numbers ("500 customers", "Page 1 of 50") in Latin digits whatever this machine's locale is;
// kept-screen.js shows the screen only where the visitor's locale writes them the same way.
const RealNumberFormat = Intl.NumberFormat;
Intl.NumberFormat = function NumberFormat(_locales, options) {
  return new RealNumberFormat('en-US', options);
};
const realToLocaleString = Number.prototype.toLocaleString;
Number.prototype.toLocaleString = function toLocaleString(_locales, options) {
  return realToLocaleString.call(this, 'en-US', options);
};

const dom = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>', {
  url: 'http://localhost/biz/customers',
  pretendToBeVisual: true,
});
const { window } = dom;
globalThis.window = window;
for (const key of Object.getOwnPropertyNames(window)) {
  if (key in globalThis) continue;
  try {
    globalThis[key] = window[key];
  } catch {
    // a read-only global of Node's own
  }
}
// jsdom has no matchMedia (the app's CSS alone decides its layout).
window.matchMedia ??= () => ({ matches: false, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} });

const { createMockApi } = await import('@otto/mock-backend');
const api = await createMockApi({ seed: { count, fakerSeed }, now: () => generatedAt });
const { createServer } = await import('vite');
const root = new URL('..', import.meta.url).pathname;
const { mkdtempSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const cacheDir = mkdtempSync(join(tmpdir(), 'otto-seed-screen-'));
const server = await createServer({
  configFile: false,
  root,
  mode: 'production',
  logLevel: 'error',
  appType: 'custom',
  // Only what this render loads, from the workspace's sources as the app's build takes them; no
  // dependency pre-bundling, no watching, nothing written to the dev server's cache.
  cacheDir,
  optimizeDeps: { noDiscovery: true, include: [] },
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  ssr: { resolve: { conditions: ['@otto/source', 'module', 'node', 'production'] } },
  define: { __OTTO_BUILD_ID__: JSON.stringify('seed-screen') },
  plugins: [
    {
      // The backend has "started": the screen renders as in a tab that owns its database.
      name: 'otto-seed-screen-backend',
      enforce: 'pre',
      async resolveId(source, importer) {
        if (importer && /(^|\/)start-once(\.ts)?$/.test(source)) return '\0otto-seed-screen-start-once';
        return null;
      },
      load(id) {
        if (id !== '\0otto-seed-screen-start-once') return null;
        return `
          const backend = {
            status: { role: 'leader', storage: 'opfs' },
            subscribe: () => () => {},
            onChange: () => () => {},
            deleteDatabase: async () => {},
            exportDatabase: async () => new Uint8Array(),
            restoreDatabase: async () => {},
          };
          const value = { ok: true, backend };
          const started = Promise.resolve(value);
          started.status = 'fulfilled';
          started.value = value;
          export function startOnce() { return started; }
          export function rendersBeforeStart() { return false; }
          export function renderBeforeStart() {}
        `;
      },
    },
  ],
});
let output;
try {
  const { renderSeedScreen } = await server.ssrLoadModule('/build/seed-screen-entry.tsx');
  const { html, answer } = await renderSeedScreen((input, init) => api.fetch(new Request(new URL(input, 'http://localhost'), init)));
  output = JSON.stringify({ generatedAt, html, answer });
} finally {
  await server.close();
  await api.close();
  window.close();
  rmSync(cacheDir, { recursive: true, force: true });
}
// React and jsdom may leave timers behind: end once the output is written out.
process.stdout.write(output, () => process.exit(0));
