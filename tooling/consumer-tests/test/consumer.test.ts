// The published packages as a consumer outside the workspace gets them: packed with pnpm (as a
// release is), installed with plain npm into a fresh project in the temp folder, and used there.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchChromium, testChromiumPath } from '@otto/browser-testing';
import { freePort } from '@otto/postgres-testing';
import { createLogger, createServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, installProject, waitForPrepared } from '../prepare-project.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const published = ['api-contract', 'sqlite-store', 'mock-backend'] as const;
const pnpm = process.env.npm_execpath?.includes('pnpm') ? [process.execPath, process.env.npm_execpath] : ['pnpm'];

let project: string;
let installWarnings = '';
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

/** The address otto-mock-server prints once it listens (it fails with its output if it exits first). */
function listeningUrl(server: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
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
}

/** Runs a test tool in a folder of the project; its whole output when it fails. */
async function runTool(dir: string, file: string, args: string[], env: Record<string, string>): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd: dir, env: { ...cleanEnv, NO_COLOR: '1', CHROMIUM_PATH: testChromiumPath(), ...env }, timeout: 150_000, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
  }
}

/** Runs a file or command in the consumer project, like its developer would. */
function inProject(file: string, args: string[], timeout = 60_000) {
  return run(file, args, { cwd: project, env: cleanEnv, timeout, maxBuffer: 16 * 1024 * 1024 });
}

beforeAll(async () => {
  const started = Date.now();
  // `otto test` installs the third-party packages in the background while the first checks run
  // (OTTO_CONSUMER_PROJECT); alone, the test installs everything here.
  const prepared = process.env.OTTO_CONSUMER_PROJECT;
  project = prepared && existsSync(prepared) ? prepared : mkdtempSync(join(tmpdir(), 'otto-consumer-'));
  const before = prepared === project ? await timed('wait for npm install (background)', () => waitForPrepared(project)) : undefined;
  if (before) timings['npm install (background)'] = before.ms;
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
  const otto = Object.fromEntries(published.map((name) => [sourceManifest(name).name, `file:./tarballs/${tarballs[name]!.split('/').pop()}`]));
  // Warnings included: an engine warning (EBADENGINE) fails the test below.
  const { stderr } = await timed('npm install', () => installProject(project, otto));
  installWarnings = `${before?.stderr ?? ''}${stderr}`;
  timings.setup = Date.now() - started;
});

afterAll(() => {
  // OTTO_CONSUMER_KEEP=1 keeps the project, to look into a failure.
  if (project && !process.env.OTTO_CONSUMER_KEEP) rmSync(project, { recursive: true, force: true });
  else if (project) console.log(`consumer project kept in ${project}`);
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

describe('the install', () => {
  it(`prints no engine warning on Node ${process.versions.node}`, () => {
    expect(installWarnings).not.toMatch(/EBADENGINE|Unsupported engine/);
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

  it("runs the README's Node test recipe for scenarios, fixtures and snapshots (node --test)", async () => {
    const readme = readFileSync(join(project, 'node_modules/@otto/mock-backend/README.md'), 'utf8');
    const recipe = readme.split(/^### In a Node test$/m)[1]?.split(/^### /m)[0] ?? '';
    const code = /```js\n([\s\S]*?)```/.exec(recipe)?.[1];
    expect(code, 'a js block under "### In a Node test"').toBeDefined();
    writeFileSync(join(project, 'scenarios.test.mjs'), code as string);
    const { stdout } = await timed('node --test', () => inProject(process.execPath, ['--test', '--test-reporter=tap', 'scenarios.test.mjs']));
    expect(stdout).toMatch(/# pass 3\n/);
    expect(stdout).toMatch(/# fail 0\n/);
  });

  it("serves the README's own routes from the command line (--extension) and describes them in /api/openapi.json", async () => {
    const readme = readFileSync(join(project, 'node_modules/@otto/mock-backend/README.md'), 'utf8');
    const section = readme.split(/^### On the command line$/m)[1]?.split(/^##+ /m)[0] ?? '';
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code, 'a js block under "### On the command line"').toBeDefined();
    writeFileSync(join(project, 'notes.mjs'), code as string);
    const server: ChildProcess = spawn(join(project, 'node_modules/.bin/otto-mock-server'), ['--port', '0', '--seed', '0', '--quiet', '--extension', './notes.mjs'], {
      cwd: project,
      env: cleanEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await listeningUrl(server);
      const created = await fetch(`${url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Call Ada back' }) });
      expect(created.status).toBe(200);
      expect(await (await fetch(`${url}/notes`)).json()).toEqual([{ id: '1', text: 'Call Ada back', created_dt: expect.any(Number) }]);
      const document = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>>; tags: { name: string }[] };
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/customers', '/notes']));
      expect(document.paths['/notes']?.post).toMatchObject({ operationId: 'notesPostNotes', requestBody: expect.anything() });
      expect(document.tags.map((t) => t.name)).toContain('notes');
      // The kit, with the README's rules of your own for these routes (api-contract README).
      const kitReadme = readFileSync(join(project, 'node_modules/@otto/api-contract/README.md'), 'utf8');
      const rules = /```js\n([\s\S]*?)```/.exec(kitReadme.split(/^### Rules of your own$/m)[1] ?? '')?.[1];
      expect(rules, 'a js block under "### Rules of your own"').toBeDefined();
      writeFileSync(join(project, 'notes-rules.mjs'), rules as string);
      const { stdout } = await inProject(join(project, 'node_modules/.bin/otto-contract-test'), ['--base-url', url, '--only', 'notes.', '--rules', './notes-rules.mjs']);
      expect(stdout).toMatch(/✓ notes\.create-and-list/);
      expect(stdout).toMatch(/✓ notes\.empty-text/);
      expect(stdout).toMatch(/all 2 rules passed/);
    } finally {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  });

  it('imports the OpenAPI document as @otto/api-contract/openapi.json', async () => {
    const { stdout } = await inProject(process.execPath, [
      '--input-type=module',
      '-e',
      "import doc from '@otto/api-contract/openapi.json' with { type: 'json' }; console.log(JSON.stringify([doc.openapi, Object.keys(doc.paths)]))",
    ]);
    const built = JSON.parse(readFileSync(join(repo, 'packages/api-contract/dist/openapi.json'), 'utf8')) as { paths: object };
    expect(JSON.parse(stdout)).toEqual(['3.1.1', Object.keys(built.paths)]);
    expect(Object.keys(built.paths)).toEqual(expect.arrayContaining(['/customers', '/customers/{id}', '/jobs', '/jobs/counts', '/jobs/{id}']));
  });

  it('serves the API with otto-mock-server, which passes otto-contract-test over HTTP', async () => {
    const server: ChildProcess = spawn(join(project, 'node_modules/.bin/otto-mock-server'), ['--port', '0', '--seed', '20', '--quiet'], {
      cwd: project,
      env: cleanEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await listeningUrl(server);
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

// Two Vite 8 + React + TypeScript apps made from the README's example (fixtures/react-app), sharing
// the project's one install: one lets ottoMockBackend() serve and build otto-sw.js, the other
// serves the copy `npx otto-mock-backend init public` wrote.
const apps = [
  { name: 'plugin-app', config: 'vite.config.plugin.ts' },
  { name: 'init-app', config: 'vite.config.init.ts' },
] as const;
type AppName = (typeof apps)[number]['name'];
const initOutput: Partial<Record<AppName, string>> = {};

describe('Vite + React + TypeScript apps', () => {
  beforeAll(async () => {
    for (const app of apps) {
      const dir = join(project, app.name);
      cpSync(join(fixtures, 'react-app'), dir, { recursive: true, filter: (src) => !/vite\.config\.\w+\.ts$/.test(src) });
      cpSync(join(fixtures, 'react-app', app.config), join(dir, 'vite.config.ts'));
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: app.name, private: true, type: 'module' }, null, 2)}\n`);
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'bundler',
            jsx: 'react-jsx',
            lib: ['ES2022', 'DOM', 'DOM.Iterable'],
            strict: true,
            noEmit: true,
            allowImportingTsExtensions: true,
            skipLibCheck: true,
            types: ['node'],
          },
          include: ['src', 'e2e', 'vite.config.ts', 'vitest.config.ts', 'playwright.config.ts'],
        }),
      );
      if (app.name === 'init-app') {
        const { stdout } = await run(join(project, 'node_modules/.bin/otto-mock-backend'), ['init', 'public'], { cwd: dir, env: cleanEnv });
        initOutput[app.name] = stdout;
      }
      await timed(`vite build ${app.name}`, () => run(join(project, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: dir, env: cleanEnv, timeout: 120_000 }));
    }
  });

  it("is the README's example, file for file", () => {
    const readme = readFileSync(join(project, 'node_modules/@otto/mock-backend/README.md'), 'utf8');
    const files = ['src/backend.ts', 'src/app.tsx', 'src/main.tsx', 'src/db.worker.ts', 'src/notes.ts', 'vite.config.plugin.ts'];
    const recipes = ['src/app.test.tsx', 'src/app.stories.tsx', 'src/app.stories.test.tsx', 'vitest.config.ts', 'playwright.config.ts', 'e2e/customers.spec.ts'];
    for (const file of [...files, ...recipes]) {
      let code = readFileSync(join(fixtures, 'react-app', file), 'utf8').trim();
      // The fixture's only additions: a test can point the page at a missing service worker, and
      // each config says which app it is.
      code = code.replace("new URLSearchParams(location.search).get('sw') ?? '/otto-sw.js'", "'/otto-sw.js'");
      code = code.replace(/^\/\/ vite\.config\.ts of .*$/m, '// vite.config.ts');
      expect(readme, `${file} in the README`).toContain(code);
    }
  });

  it('typechecks: the README example is TypeScript against the published types', async () => {
    await timed('tsc', () => run(join(project, 'node_modules/.bin/tsc'), ['-p', join(project, 'plugin-app')], { cwd: project, env: cleanEnv, timeout: 120_000 }));
  });

  it('records the init folder in package.json, so that installs update the copy', () => {
    const dir = join(project, 'init-app');
    expect(initOutput['init-app']).toContain('Wrote public/otto-sw.js');
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({ ottoMockBackend: { workerDirectory: ['public'] } });
    expect(readFileSync(join(dir, 'public/otto-sw.js'), 'utf8')).toBe(readFileSync(join(project, 'node_modules/@otto/mock-backend/dist/otto-sw.js'), 'utf8'));
  });

  it.each(apps)('$name builds the service worker, the DB worker and SQLite, and none of SQLite\'s unused scripts', ({ name }) => {
    const dist = join(project, name, 'dist');
    const assets = readdirSync(join(dist, 'assets'));
    expect(readFileSync(join(dist, 'otto-sw.js'), 'utf8')).toContain('INIT_PORT');
    expect(assets.some((f) => /^sqlite3-[\w-]+\.wasm$/.test(f)), `a SQLite WASM asset in ${assets.join(', ')}`).toBe(true);
    expect(assets.some((f) => /^db\.worker-[\w-]+\.js$/.test(f)), `a DB worker chunk in ${assets.join(', ')}`).toBe(true);
    expect(assets.filter((f) => /sqlite3-(worker1|opfs-async-proxy)/.test(f))).toEqual([]);
  });

  it('leaves faker out of a build whose plugin makes the first-start file (and only then)', () => {
    const fakerIn = (name: AppName) => {
      const assets = join(project, name, 'dist/assets');
      // faker's English first names (its locale data), which no other part of the build holds.
      return readdirSync(assets).filter((f) => f.endsWith('.js') && readFileSync(join(assets, f), 'utf8').includes('Aaliyah'));
    };
    expect(fakerIn('plugin-app')).toEqual([]);
    expect(existsSync(join(project, 'plugin-app/dist/otto-seed.sqlite3.gz'))).toBe(true);
    // The app without the seed option seeds in the browser: its build carries faker's chunk.
    expect(fakerIn('init-app').length).toBeGreaterThan(0);
  });

  it.each(apps)('$name renders customers in Chromium and answers its own /api/notes beside them', async ({ name }) => {
    const server = await preview({ root: join(project, name), logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
    const browser = await timed(`chromium ${name}`, () => launchChromium({ test: true }));
    try {
      const address = server.httpServer.address();
      if (!address || typeof address === 'string') throw new Error('vite preview did not report its port.');
      const page = await browser.newPage({ baseURL: `http://127.0.0.1:${address.port}` });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        // The 409 and 400 asked for below are logged by Chromium as failed loads: they are answers.
        const asked = /status of (400|409)/.test(message.text()) && message.location().url.endsWith('/api/notes');
        if (message.type() === 'error' && !asked) problems.push(`${message.text()} (${message.location().url})`);
      });
      const fromWorker: string[] = [];
      page.on('response', (response) => {
        if (response.fromServiceWorker()) fromWorker.push(new URL(response.url()).pathname);
      });

      await page.goto('/');
      await page.locator('#status', { hasText: /customers$/ }).waitFor({ timeout: 60_000 });
      expect(await page.locator('#status').textContent()).toBe('opfs: 500 customers');
      expect(await page.locator('#customers li').count()).toBe(10);
      expect(fromWorker, "the page's /api call was answered by the service worker").toContain('/api/customers');

      const answers = await page.evaluate(async () => {
        const post = (body: unknown) => fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const created = await post({ text: 'Call Ada back' });
        const again = await post({ text: 'Call Ada back' });
        const empty = await post({ text: ' ' });
        const list = await fetch('/api/notes');
        const customers = await fetch('/api/customers');
        return {
          created: { status: created.status, body: (await created.json()) as unknown },
          again: { status: again.status, body: (await again.json()) as unknown },
          empty: { status: empty.status, body: (await empty.json()) as unknown },
          list: { total: list.headers.get('X-Total-Count'), body: (await list.json()) as unknown },
          customers: { status: customers.status, total: customers.headers.get('X-Total-Count'), count: ((await customers.json()) as unknown[]).length },
        };
      });
      expect(answers.created).toEqual({ status: 200, body: { id: '1', text: 'Call Ada back', created_dt: expect.any(Number) } });
      expect(answers.again).toEqual({ status: 409, body: { code: 'CONFLICT', message: 'That note exists already.' } });
      expect(answers.empty).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'Some fields need attention.', issues: [{ path: 'text', message: 'Write something.' }] } });
      expect(answers.list).toEqual({ total: '1', body: [answers.created.body] });
      expect(answers.customers).toEqual({ status: 200, total: '500', count: 10 });
      // The page listed the note when the change feed told it: the route publishes like Otto's.
      await page.locator('#notes li', { hasText: 'Call Ada back' }).waitFor({ timeout: 10_000 });

      // Reloaded, the data is still there (OPFS).
      await page.reload();
      await page.locator('#notes li', { hasText: 'Call Ada back' }).waitFor({ timeout: 60_000 });
      expect(problems).toEqual([]);

      if (name === 'plugin-app') {
        // A dropped connection (the README's Vitest and Playwright recipes, run below, show a 500,
        // a reset and a slow network): fetch rejects, as it does offline.
        const scenario = (method: string, body?: unknown) =>
          page.evaluate(
            async ([m, b]) => (await fetch('/api/__otto/scenario', { method: m as string, ...(b === undefined ? {} : { body: JSON.stringify(b) }) })).status,
            [method, body] as const,
          );
        expect(await scenario('POST', { method: 'GET', path: '/customers', error: 'network', times: 1 })).toBe(200);
        await page.reload();
        expect(await page.locator('#error').textContent({ timeout: 60_000 })).toMatch(/^Could not load the customers \(Failed to fetch/);
        // `times: 1`: the next load is answered as usual.
        await page.reload();
        await page.locator('#status', { hasText: /customers$/ }).waitFor({ timeout: 60_000 });
        expect(await scenario('GET')).toBe(200);
        // Data per test in the browser: a snapshot of the database, a fixture in its place, the
        // snapshot put back (OPFS); each outlasts a reload.
        const control = (path: string, method: string, body?: unknown) =>
          page.evaluate(
            async ([p, m, b]) => {
              const res = await fetch(`/api/__otto/${p as string}`, { method: m as string, ...(b === undefined ? {} : { body: JSON.stringify(b) }) });
              return { status: res.status, body: (await res.json()) as unknown };
            },
            [path, method, body] as const,
          );
        expect(await control('snapshot', 'POST')).toEqual({ status: 200, body: { name: 'default' } });
        const fixture = { customers: [{ id: 1, full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' }] };
        expect(await control('data', 'PUT', fixture)).toEqual({ status: 200, body: { customers: 1, jobs: 0 } });
        await page.reload();
        expect(await page.locator('#status').textContent({ timeout: 60_000 })).toBe('opfs: 1 customers');
        expect(await page.locator('#customers li').allTextContents()).toEqual(['Ada Lovelace']);
        expect(await control('snapshot/restore', 'POST')).toEqual({ status: 200, body: { name: 'default' } });
        await page.reload();
        await page.locator('#status', { hasText: 'opfs: 500 customers' }).waitFor({ timeout: 60_000 });
        // Chromium logs the 500 and the dropped load as errors: they were asked for.
        expect(problems.filter((p) => !/status of 500|Failed to fetch|ERR_FAILED/.test(p))).toEqual([]);
      }

      if (name === 'init-app') {
        // A missing service worker file is an error in words, naming the fix.
        const missing = await browser.newPage({ baseURL: `http://127.0.0.1:${address.port}` });
        const errors: string[] = [];
        missing.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        await missing.goto('/?sw=/not-copied-sw.js');
        await expect.poll(() => errors.join('\n'), { timeout: 30_000 }).toMatch(/The Otto service worker \/not-copied-sw\.js is missing: the server answered \d+ .*npx otto-mock-backend init public/);

        // A copy left from another version of the package: the page says so and names the fix.
        const served = join(project, name, 'dist/otto-sw.js');
        writeFileSync(served, readFileSync(served, 'utf8').replace(/(mockBackendVersion = [^"]*)"[^"]+"/, '$1"0.0.1-old"'));
        const stale = await browser.newPage({ baseURL: `http://127.0.0.1:${address.port}` });
        const staleErrors: string[] = [];
        stale.on('console', (message) => {
          if (message.type() === 'error') staleErrors.push(message.text());
        });
        await stale.goto('/');
        await stale.locator('#status', { hasText: /customers$/ }).waitFor({ timeout: 60_000 });
        expect(staleErrors.join('\n')).toMatch(/is from @otto\/mock-backend 0\.0\.1-old, but this page uses \d+\.\d+\.\d+.*npx otto-mock-backend init/);
      }
    } finally {
      await browser.close();
      await server.close();
    }
  });
});

describe("the README's test recipes, in the plugin app", () => {
  it('Vitest browser mode: a 500 and the error state, a reset, a delay and the loading state, and the stories on a fixture and a scenario', async () => {
    const dir = join(project, 'plugin-app');
    // The test's two apps share node_modules one folder up: Vite may serve from there (an app with
    // its own node_modules needs nothing of the kind).
    writeFileSync(
      join(dir, 'vitest.consumer.config.ts'),
      "import { mergeConfig } from 'vitest/config';\nimport config from './vitest.config.ts';\n\nexport default mergeConfig(config, { server: { fs: { allow: ['..'] } } });\n",
    );
    const stdout = await timed('vitest browser mode', () => runTool(dir, join(project, 'node_modules/.bin/vitest'), ['run', '--config', 'vitest.consumer.config.ts'], {}));
    expect(stdout).toMatch(/✓ .*src\/app\.test\.tsx \(2 tests\)/);
    expect(stdout).toMatch(/✓ .*src\/app\.stories\.test\.tsx \(2 tests\)/);
    expect(stdout).toMatch(/Tests\s+4 passed \(4\)/);
  });

  it('Playwright Test: a slow network shows the loading state, a 500 the error state', async () => {
    const port = await freePort();
    const stdout = await timed('playwright test', () => runTool(join(project, 'plugin-app'), join(project, 'node_modules/.bin/playwright'), ['test', '--reporter=line'], { PORT: String(port) }));
    expect(stdout).toMatch(/2 passed/);
    expect(stdout).not.toMatch(/failed|flaky/);
  });
});

describe('the plugin in `vite` (dev)', () => {
  it('serves the app, its service worker and DB worker without reloading the page on the first load', { timeout: 150_000 }, async () => {
    const logged: string[] = [];
    const logger = createLogger('info');
    const log = (msg: string) => logged.push(msg);
    const server = await createServer({
      root: join(project, 'plugin-app'),
      customLogger: { ...logger, info: log, warn: log, warnOnce: log, error: log },
      // The two apps share the project's node_modules one folder up: let Vite serve from there
      // (in an app with its own node_modules this is Vite's default).
      server: { host: '127.0.0.1', port: 0, strictPort: false, fs: { allow: [project] } },
    });
    await server.listen();
    const browser = await timed('chromium dev', () => launchChromium({ test: true }));
    try {
      const address = server.httpServer?.address();
      if (!address || typeof address === 'string') throw new Error('vite did not report its port.');
      const page = await browser.newPage({ baseURL: `http://127.0.0.1:${address.port}` });
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${message.text()} (${message.location().url})`);
      });
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations += 1;
      });
      await timed('dev first load', async () => {
        await page.goto('/');
        await page
          .locator('#status', { hasText: /customers$/ })
          .waitFor({ timeout: 100_000 })
          .catch((error: unknown) => {
            throw new Error(`${String(error)}\nconsole: ${problems.join(' | ')}\nvite: ${logged.join(' | ')}`);
          });
      });
      expect(await page.locator('#status').textContent()).toBe('opfs: 500 customers');
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/otto-sw\.js$/);
      expect(navigations, `the page was loaded once, not reloaded by Vite (log: ${logged.join(' | ')})`).toBe(1);
      expect(logged.join('\n')).not.toMatch(/reloading|new dependencies optimized/i);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
