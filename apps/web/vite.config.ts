import react from '@vitejs/plugin-react';
import { ottoMockBackend } from '@otto/mock-backend/vite';
import { sourceCondition } from '@otto/vitest-config';
import { defaultClientConditions, defineConfig, loadEnv } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { ottoContentSecurityPolicy } from './content-security-policy.ts';
import { ottoWebManifest } from './web-manifest.ts';
import { ottoStaticLanding } from './vite-plugin-otto-landing.ts';
import { ottoSeedData } from './vite-plugin-otto-seed.ts';
import { ottoSeedScreen } from './vite-plugin-otto-seed-screen.ts';
import { ottoServiceWorker } from './vite-plugin-otto-sw.ts';

// A build id that sorts by build time: a newer build takes the database over from older tabs.
const buildId = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
// The moment the first-start data is made at, shared by the data and the first visit's screen.
const seedMoment = Date.now();

/** The server the app's API lives on, when it is not the browser (remote mode). */
const remoteApiBaseUrl = (mode: string) => loadEnv(mode, process.cwd()).VITE_OTTO_API_BASE_URL?.trim() || undefined;
/** The team server a device's copy syncs with (sync mode, decision 0163). */
const syncServerUrl = (mode: string) => loadEnv(mode, process.cwd()).VITE_OTTO_SYNC_URL?.trim() || undefined;

/** The id of what `command` makes: a build's, or `dev` for the dev server. */
const buildIdFor = (command: string) => (command === 'build' ? (process.env.OTTO_BUILD_ID ?? buildId) : 'dev');

export default defineConfig(({ mode, command }) => ({
  define: { __OTTO_BUILD_ID__: JSON.stringify(buildIdFor(command)) },
  plugins: [
    react(),
    // The build's id in app.html, for public/kept-screen.js: a kept screen shows only in the build that drew it.
    { name: 'otto-build-id', transformIndexHtml: (html: string) => html.replaceAll('%OTTO_BUILD_ID%', buildIdFor(command)) },
    // The library's own Vite plugin, as an app with its own service worker uses it: dependency
    // optimisation, ES-module workers, and SQLite's unused helper scripts left out of the build.
    ottoMockBackend({ serviceWorker: false }),
    // Dev: the same service worker source compiled on request, with an empty precache.
    { ...ottoServiceWorker({ entry: './src/otto-sw.ts' }), apply: 'serve' },
    // `/` is static HTML (no JavaScript); every other page is the app (app.html).
    ottoStaticLanding(),
    // The first-start data, made in Node at build time: no faker in the browser.
    ottoSeedData({ now: seedMoment }),
    // …and the first visit's screen over it, shown before the database exists (decision 0009).
    // Not for a device's copy either: its data comes from its team server.
    ottoSeedScreen({ generatedAt: seedMoment, remote: Boolean(remoteApiBaseUrl(mode) ?? syncServerUrl(mode)) }),
    // Build: the service worker with the precache manifest of every file the app needs.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'otto-sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      manifest: ottoWebManifest,
      includeManifestIcons: false,
      injectManifest: {
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,svg,png,wasm,webmanifest,json,gz}'],
        // faker's chunk (seed-*.js): the app starts from otto-seed.sqlite3.gz, made at build time.
        // (SQLite's unused helper scripts are not in the build at all: ottoMockBackend leaves them out.)
        globIgnores: ['**/seed-*.js'],
        // sqlite3.wasm is 0.9 MB: the app cannot start without it.
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    ottoContentSecurityPolicy(remoteApiBaseUrl(mode) ?? syncServerUrl(mode)),
  ],
  resolve: { conditions: [sourceCondition, ...defaultClientConditions] },
  build: {
    target: 'es2022',
    sourcemap: true,
    // bundlerTimings: Rolldown's note when plugins take long, which on a busy two-core machine is
    // noise in every test log, not news.
    rollupOptions: { input: ['index.html', 'app.html'], checks: { bundlerTimings: false } },
  },
}));
