// The published packages as a consumer outside the workspace gets them: packed with pnpm (as a
// release is), installed with plain npm into a fresh project in the temp folder, and used there.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchChromium } from '@otto/browser-testing';
import { preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const published = ['api-contract', 'sqlite-store', 'mock-backend'] as const;
const viteVersion = (createRequire(import.meta.url)('vite/package.json') as { version: string }).version;

// npm must not see the settings pnpm passes to the scripts it runs (npm_config_*).
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)));
const pnpm = process.env.npm_execpath?.includes('pnpm') ? [process.execPath, process.env.npm_execpath] : ['pnpm'];

let project: string;
const tarballs: Record<string, string> = {};
const timings: Record<string, number> = {};

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await fn();
  } finally {
    timings[label] = Date.now() - started;
  }
}

function sourceManifest(name: string): { name: string; version: string } {
  return JSON.parse(readFileSync(join(repo, 'packages', name, 'package.json'), 'utf8')) as { name: string; version: string };
}

async function packedManifest(name: string): Promise<Record<string, unknown>> {
  const { stdout } = await run('tar', ['-xzOf', tarballs[name] as string, 'package/package.json']);
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** Runs a file or command in the consumer project, like its developer would. */
function inProject(file: string, args: string[], timeout = 60_000) {
  return run(file, args, { cwd: project, env: cleanEnv, timeout, maxBuffer: 16 * 1024 * 1024 });
}

beforeAll(async () => {
  const started = Date.now();
  project = mkdtempSync(join(tmpdir(), 'otto-consumer-'));
  const packs = join(project, 'tarballs');
  mkdirSync(packs);
  await timed('pack', async () => {
    for (const name of published) {
      const dir = join(repo, 'packages', name);
      if (!existsSync(join(dir, 'dist'))) throw new Error(`packages/${name} has no dist/: run \`pnpm turbo run build\` first (turbo does it before this test).`);
      const before = new Set(readdirSync(packs));
      await run(pnpm[0] as string, [...pnpm.slice(1), 'pack', '--pack-destination', packs], { cwd: dir });
      const file = readdirSync(packs).find((f) => !before.has(f) && f.endsWith('.tgz'));
      tarballs[name] = join(packs, file as string);
    }
  });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'otto-consumer',
      private: true,
      type: 'module',
      dependencies: {
        ...Object.fromEntries(published.map((name) => [sourceManifest(name).name, `file:./tarballs/${tarballs[name]!.split('/').pop()}`])),
        vite: viteVersion,
      },
    }),
  );
  await timed('npm install', () => inProject('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], 170_000));
  timings.setup = Date.now() - started;
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
  console.log(`consumer test timings (ms): ${JSON.stringify(timings)}`);
});

describe('the packed packages', () => {
  it('carry real version ranges instead of workspace: and catalog:, and no in-repo export condition', async () => {
    const contract = sourceManifest('api-contract');
    const store = sourceManifest('sqlite-store');
    const backend = (await packedManifest('mock-backend')) as { dependencies: Record<string, string> };
    expect(backend.dependencies['@otto/api-contract']).toBe(`^${contract.version}`);
    expect(backend.dependencies['@otto/sqlite-store']).toBe(`^${store.version}`);
    for (const name of published) {
      const text = JSON.stringify(await packedManifest(name));
      expect(text, name).not.toMatch(/"(workspace|catalog):/);
      expect(text, name).not.toContain('@otto/source');
    }
    expect(existsSync(join(project, 'node_modules/@otto/mock-backend/src')), 'sources stay out of the tarball').toBe(false);
  });
});

describe('a Node project', () => {
  it('answers a search with createMockApi', async () => {
    cpSync(join(fixtures, 'search.mjs'), join(project, 'search.mjs'));
    const { stdout } = await timed('node search', () => inProject(process.execPath, ['search.mjs']));
    expect(JSON.parse(stdout)).toMatchObject({ status: 200, total: '1', names: ['Zoë Consumer'], storage: 'memory', seeded: 30 });
  });

  it.each(published)('runs the quick start of the %s README as written', async (name) => {
    const readme = readFileSync(join(project, 'node_modules/@otto', name, 'README.md'), 'utf8');
    const quickStart = readme.split(/^## Quick start$/m)[1]?.split(/^## /m)[0] ?? '';
    const code = /```js\n([\s\S]*?)```/.exec(quickStart)?.[1];
    expect(code, `a js block under "## Quick start" in ${name}/README.md`).toBeDefined();
    writeFileSync(join(project, `quick-start-${name}.mjs`), code as string);
    const { stdout } = await inProject(process.execPath, [`quick-start-${name}.mjs`]);
    expect(stdout.length).toBeGreaterThan(0);
  });

  it('imports the OpenAPI document as @otto/api-contract/openapi.json', async () => {
    const { stdout } = await inProject(process.execPath, [
      '--input-type=module',
      '-e',
      "import doc from '@otto/api-contract/openapi.json' with { type: 'json' }; console.log(JSON.stringify([doc.openapi, Object.keys(doc.paths)]))",
    ]);
    expect(JSON.parse(stdout)).toEqual(['3.1.1', ['/customers', '/customers/{id}', '/jobs', '/jobs/counts', '/jobs/{id}']]);
  });

  it('serves the API with otto-mock-server, which passes otto-contract-test over HTTP', async () => {
    const server: ChildProcess = spawn(join(project, 'node_modules/.bin/otto-mock-server'), ['--port', '0', '--seed', '20', '--quiet'], {
      cwd: project,
      env: cleanEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`otto-mock-server did not start:\n${output}`)), 30_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(output);
          if (found) {
            clearTimeout(timer);
            resolve(found[1] as string);
          }
        };
        server.stdout?.on('data', read);
        server.stderr?.on('data', read);
        server.once('exit', (code) => reject(new Error(`otto-mock-server exited with ${code}:\n${output}`)));
      });
      const { stdout } = await timed('contract over HTTP', () => inProject(join(project, 'node_modules/.bin/otto-contract-test'), ['--base-url', url]));
      expect(stdout).toMatch(/: all \d+ rules passed/);
      expect(stdout).not.toContain('✗');
      // The document it serves is the one @otto/api-contract ships.
      const served: unknown = await (await fetch(`${url}/openapi.json`)).json();
      expect(served).toEqual(JSON.parse(readFileSync(join(project, 'node_modules/@otto/api-contract/dist/openapi.json'), 'utf8')));
      expect((await fetch(`${url}/docs`)).headers.get('content-type')).toBe('text/html; charset=utf-8');
    } finally {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  });
});

describe('a Vite project', () => {
  beforeAll(async () => {
    cpSync(join(fixtures, 'vite-app'), project, { recursive: true });
    // The service worker ships as @otto/mock-backend/otto-sw.js; the app serves it from its root.
    const { stdout: swUrl } = await inProject(process.execPath, [
      '--input-type=module',
      '-e',
      "console.log(import.meta.resolve('@otto/mock-backend/otto-sw.js'))",
    ]);
    mkdirSync(join(project, 'public'), { recursive: true });
    cpSync(fileURLToPath(swUrl.trim()), join(project, 'public/otto-sw.js'));
    await timed('vite build', () => inProject(join(project, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], 120_000));
  });

  it('builds a page with the service worker, the DB worker and the SQLite WASM', () => {
    const dist = join(project, 'dist');
    const assets = readdirSync(join(dist, 'assets'));
    expect(readFileSync(join(dist, 'otto-sw.js'), 'utf8')).toContain('INIT_PORT');
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
    expect(assets.some((f) => /^sqlite3-[\w-]+\.wasm$/.test(f)), `a SQLite WASM asset in ${assets.join(', ')}`).toBe(true);
    expect(assets.some((f) => /^db\.worker-[\w-]+\.js$/.test(f)), `a DB worker chunk in ${assets.join(', ')}`).toBe(true);
  });

  it('registers the service-worker relay and starts the browser backend: Chromium gets customers from it', async () => {
    const server = await preview({ root: project, logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
    const browser = await timed('chromium', () => launchChromium());
    try {
      const address = server.httpServer.address();
      if (!address || typeof address === 'string') throw new Error('vite preview did not report its port.');
      const page = await browser.newPage({ baseURL: `http://127.0.0.1:${address.port}` });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        // The fixture has no favicon; the browser asks for one anyway.
        if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) problems.push(`${message.text()} (${message.location().url})`);
      });
      const fromWorker: string[] = [];
      page.on('response', (response) => {
        if (response.fromServiceWorker()) fromWorker.push(new URL(response.url()).pathname);
      });

      await page.goto('/');
      // The fixture's main.js writes this line once its own fetch('/api/customers') has answered.
      await page.locator('#status', { hasText: /customers$/ }).waitFor({ timeout: 60_000 });
      expect(await page.locator('#status').textContent()).toBe('opfs: 500 customers');
      expect(fromWorker, 'the page\'s /api call was answered by the service worker').toContain('/api/customers');

      const answer = await page.evaluate(async () => {
        const res = await fetch('/api/customers');
        return {
          status: res.status,
          total: res.headers.get('X-Total-Count'),
          body: (await res.json()) as unknown,
          controller: navigator.serviceWorker.controller?.scriptURL ?? null,
        };
      });
      expect(answer.controller).toMatch(/\/otto-sw\.js$/);
      expect(answer).toMatchObject({ status: 200, total: '500' });
      const customer = { id: expect.stringMatching(/^\d+$/), full_name: expect.any(String), email: expect.stringContaining('@'), phone: expect.any(String), created_dt: expect.any(Number), modified_dt: expect.any(Number) };
      expect(answer.body).toEqual(Array.from({ length: 10 }, () => customer));
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
