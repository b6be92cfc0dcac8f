import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Response } from 'playwright-core';
import type { AppServer } from './app-server';
import { freshProfile, launchProfile, removeProfile } from './chromium';

export interface ShippedFile {
  path: string;
  kind: 'js' | 'wasm' | 'css' | 'html' | 'other';
  raw: number;
  gzip: number;
  /** 'chromium': recorded from Chromium's network responses; 'server': fetched (a worker or service worker script) but not reported by Chromium to the page. */
  seenBy: 'chromium' | 'server';
}

export interface RouteShipment {
  route: string;
  files: ShippedFile[];
  js: { raw: number; gzip: number };
  wasm: { raw: number; gzip: number };
  /** Any SQLite file (its JS glue or wasm) among them. */
  loadsSqlite: boolean;
  /** JS files that hold faker (the data generator), found by one of its messages. */
  fakerIn: string[];
  /** The largest JS file (raw): Vite warns about chunks over 500 KB. */
  largestJs?: { path: string; raw: number };
}

// A message only faker's code holds; survives minification.
const fakerMark = 'You cannot edit the locale data on the faker instance';

function kindOf(path: string, contentType: string): ShippedFile['kind'] {
  if (path.endsWith('.wasm') || contentType.includes('wasm')) return 'wasm';
  if (/\.m?js$/.test(path) || contentType.includes('javascript')) return 'js';
  if (path.endsWith('.css') || contentType.includes('css')) return 'css';
  if (contentType.includes('html')) return 'html';
  return 'other';
}

function sizes(body: Buffer): { raw: number; gzip: number } {
  return { raw: body.length, gzip: gzipSync(body, { level: 6 }).length };
}

/**
 * What a first visit to `route` downloads, in a fresh profile: every response Chromium reports
 * (page and dedicated workers), plus what the server sent that Chromium did not report (the
 * service worker script). Sizes are of the bodies as served (raw) and gzipped at level 6.
 */
async function shipmentOf(app: AppServer, appDist: string, route: string, waitFor: 'first-row' | 'idle'): Promise<RouteShipment> {
  const profile = freshProfile();
  const context = await launchProfile(profile);
  const files = new Map<string, ShippedFile>();
  const fakerIn = new Set<string>();
  const note = (path: string, kind: ShippedFile['kind'], body: Buffer) => {
    if (kind === 'js' && body.includes(fakerMark)) fakerIn.add(path);
  };
  const reading: Promise<void>[] = [];
  const onResponse = (response: Response) => {
    const url = new URL(response.url());
    if (url.origin !== app.origin || url.pathname.startsWith('/api/')) return;
    reading.push(
      response.body().then(
        (body) => {
          const kind = kindOf(url.pathname, response.headers()['content-type'] ?? '');
          note(url.pathname, kind, body);
          files.set(url.pathname, { path: url.pathname, kind, ...sizes(body), seenBy: 'chromium' });
        },
        () => undefined,
      ),
    );
  };
  context.on('response', onResponse);
  try {
    app.takeServed();
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('response', onResponse);
    await page.goto(app.origin + route);
    if (waitFor === 'first-row') {
      await page.waitForSelector('table a[href*="/biz/customers/edit/"]', { timeout: 60_000 });
    }
    await page.waitForLoadState('networkidle');
    await Promise.all(reading);
    for (const path of app.takeServed()) {
      if (files.has(path) || path.startsWith('/api/')) continue;
      const file = join(appDist, path);
      if (!existsSync(file) || path.endsWith('/')) continue;
      const body = readFileSync(file);
      note(path, kindOf(path, ''), body);
      files.set(path, { path, kind: kindOf(path, ''), ...sizes(body), seenBy: 'server' });
    }
  } finally {
    await context.close();
    removeProfile(profile);
  }
  const list = [...files.values()].sort((a, b) => b.raw - a.raw);
  const largest = list.find((f) => f.kind === 'js');
  const total = (kind: ShippedFile['kind']) =>
    list.filter((f) => f.kind === kind).reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip }), { raw: 0, gzip: 0 });
  return {
    route,
    files: list,
    js: total('js'),
    wasm: total('wasm'),
    loadsSqlite: list.some((f) => f.kind === 'wasm' || /sqlite/i.test(f.path)),
    fakerIn: [...fakerIn],
    ...(largest ? { largestJs: { path: largest.path, raw: largest.raw } } : {}),
  };
}

export async function benchShipments(app: AppServer, appDist: string): Promise<RouteShipment[]> {
  return [await shipmentOf(app, appDist, '/', 'idle'), await shipmentOf(app, appDist, '/biz/customers', 'first-row')];
}
