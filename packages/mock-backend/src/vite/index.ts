// Entry of `@otto/mock-backend/vite`: the Vite plugin that sets an app up for the in-browser backend.
// It runs in Node (in Vite's config), never in a page. Only Vite's types are imported: the plugin
// works with the Vite the app has.
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin, UserConfig } from 'vite';

/**
 * Options of `ottoMockBackend()`.
 * @example
 * const options: OttoMockBackendOptions = { serviceWorker: false }; // the app brings its own service worker
 */
export interface OttoMockBackendOptions {
  /**
   * Serve Otto's service worker (`otto-sw.js`) at the app root in `vite` and `vite preview`, and
   * write it to the root of `dist` in `vite build` (never hashed: the registration URL must stay the
   * same). `false` for an app that installs the relay in a service worker of its own
   * (`installOttoRelay` from `@otto/mock-backend/service-worker`): the plugin then only sets up
   * dependency optimisation, the worker format and the SQLite files.
   * @default { fileName: 'otto-sw.js' }
   */
  serviceWorker?: false | { fileName?: string };
  /**
   * Make the first-start data at build time, in Node, instead of in the browser with faker: the
   * plugin writes a SQLite file of `count` customers (each with a history of jobs) at the app root
   * (served by `vite`, emitted by `vite build`), the DB worker starts a new database from it (only
   * its dates move to the moment it starts), and faker is left out of the build. A `seed` given
   * to `serveMockApiInWorker` still wins when it brings its data (`{ data }`, `{ file }`); one
   * that asks for random data (`{ count }`) fails, since faker is not in the build.
   * @example
   * ottoMockBackend({ seed: { count: 200, fakerSeed: 1 } })
   */
  seed?: {
    /** @default 500 */
    count?: number;
    /** The same data on every build (only its dates follow the build time). @default 1 */
    fakerSeed?: number;
    /** Whether the customers get jobs. @default true */
    jobs?: boolean;
    /** @default 'otto-seed.sqlite3.gz' */
    fileName?: string;
  };
}

/** The package's own files, found from this module (dist/vite.js sits beside dist/otto-sw.js). */
const requireHere = createRequire(import.meta.url);

/** Where SQLite WASM keeps files the build must not bundle or prebundle. */
const sqliteWasm = '@sqlite.org/sqlite-wasm';

/**
 * SQLite's helper scripts Otto never runs: the Worker1 API's worker (Otto runs SQLite in its own DB
 * worker) and the async proxy of the "opfs" VFS (Otto uses "opfs-sahpool", which needs none).
 * Bundled, they are ~250 KB of never-requested files in `dist/assets`.
 */
const unusedSqliteScripts = /new\s+URL\(\s*(['"`])((?:sqlite3-worker1|sqlite3-opfs-async-proxy)[\w.-]*)\1\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Sets a Vite app up for Otto's in-browser backend:
 * - serves `otto-sw.js` (the `/api` relay) from the app root in dev and preview, and emits it at the
 *   root of `dist` in a build (unless `serviceWorker: false`);
 * - keeps `@sqlite.org/sqlite-wasm` out of dependency prebundling (its `.wasm` is found next to its
 *   script), prebundles the library's entries and lets the dependency scan start from worker
 *   modules (`*.worker.ts`), so that the first `vite` load of the DB worker does not make Vite
 *   re-optimise and reload the page;
 * - builds workers as ES modules (the DB worker imports SQLite as a module);
 * - leaves SQLite's unused helper scripts (`sqlite3-worker1*.js`, `sqlite3-opfs-async-proxy*.js`)
 *   out of the build.
 *
 * Tested with Vite 8.
 * @example
 * // vite.config.ts
 * import react from '@vitejs/plugin-react';
 * import { ottoMockBackend } from '@otto/mock-backend/vite';
 * import { defineConfig } from 'vite';
 *
 * export default defineConfig({ plugins: [react(), ottoMockBackend()] });
 */
export function ottoMockBackend(options: OttoMockBackendOptions = {}): Plugin[] {
  const plugins: Plugin[] = [setupPlugin(Boolean(options.seed)), leaveOutUnusedSqliteScripts()];
  if (options.serviceWorker !== false) plugins.push(serviceWorkerPlugin(options.serviceWorker?.fileName ?? 'otto-sw.js'));
  if (options.seed) plugins.push(seedFilePlugin(options.seed), leaveOutFaker());
  return plugins;
}

function setupPlugin(withoutFaker: boolean): Plugin {
  return {
    name: 'otto-mock-backend:setup',
    config(config) {
      const root = config.root ?? process.cwd();
      // Worker bundles get Vite's plugins only through worker.plugins: SQLite is imported there.
      const theirs = config.worker?.plugins;
      const worker: UserConfig['worker'] = {
        format: 'es',
        plugins: () => [...(theirs?.() ?? []), leaveOutUnusedSqliteScripts(), ...(withoutFaker ? [leaveOutFaker()] : [])],
      };
      config.worker = { ...config.worker, ...worker };
      const installed = installedInNodeModules(root);
      return {
        optimizeDeps: {
          exclude: [sqliteWasm],
          // The DB worker is started with `new Worker(new URL(…))`, which Vite's dependency scan does
          // not follow: its imports (the backend, your routes' zod…) would be found on the first
          // load, and Vite would re-optimise and reload the page. So the scan also starts from
          // worker modules (`*.worker.ts` and the like), unless the app names its own entries, and
          // the backend's entries are prebundled in any case. Only for an installed copy: a linked
          // workspace package is served from its source.
          ...(installed && config.optimizeDeps?.entries === undefined ? { entries: ['**/*.html', '**/*.worker.{ts,tsx,js,jsx,mts,mjs}'] } : {}),
          include: installed ? ['@otto/mock-backend', '@otto/mock-backend/browser', '@otto/mock-backend/worker'] : [],
        },
      };
    },
  };
}

function leaveOutUnusedSqliteScripts(): Plugin {
  return {
    name: 'otto-mock-backend:leave-out-unused-sqlite-scripts',
    enforce: 'pre',
    transform(code, id) {
      if (!isSqliteWasmModule(id) || !code.includes('import.meta.url')) return null;
      let changed = false;
      const out = code.replace(unusedSqliteScripts, (_match, _quote: string, file: string) => {
        changed = true;
        // Reached only if the app turns on SQLite's Worker1 API or its "opfs" VFS itself.
        return `(() => { throw new Error(${JSON.stringify(
          `${file} was left out of the build by @otto/mock-backend/vite: Otto runs SQLite in its own DB worker on the opfs-sahpool VFS.`,
        )}); })()`;
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}

function serviceWorkerPlugin(fileName: string): Plugin {
  let base = '/';
  let build = false;
  let ssr = false;
  const path = () => `${base}${fileName}`;
  const script = () => readFileSync(requireHere.resolve('@otto/mock-backend/otto-sw.js'), 'utf8');
  const headers = { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' };
  return {
    name: 'otto-mock-backend:service-worker',
    configResolved(config) {
      base = config.base;
      build = config.command === 'build';
      ssr = Boolean(config.build.ssr);
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== path()) return next();
        res.writeHead(200, headers);
        res.end(script());
      });
    },
    generateBundle() {
      if (!build || ssr) return;
      this.emitFile({ type: 'asset', fileName, source: script() });
    },
  };
}

/** The module that seeds with faker, as the backend's build names it (a chunk) or its source. */
const fakerSeedModule = /^\.\/seed-[A-Z0-9]{8}\.js$|^\.\.\/database\/seed$/;
const noFakerId = '\0otto-mock-backend:seed-without-faker';

/** With a first-start file made at build time, faker's seeding module is never loaded: leave it out. */
function leaveOutFaker(): Plugin {
  return {
    name: 'otto-mock-backend:leave-out-faker',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !fakerSeedModule.test(source)) return null;
      const from = importer.split(sep).join('/');
      return /@otto\/mock-backend\/(dist|src)\/|@otto\+mock-backend@|packages\/mock-backend\/(dist|src)\//.test(from) ? noFakerId : null;
    },
    load(id) {
      if (id !== noFakerId) return null;
      return `export function seedDatabase() { throw new Error('faker was left out by ottoMockBackend({ seed }): the DB worker starts from the first-start file the plugin made.'); }`;
    },
  };
}

/** Makes the first-start file (in Node, once per process), serves it in `vite` and emits it in `vite build`. */
function seedFilePlugin(seed: NonNullable<OttoMockBackendOptions['seed']>): Plugin {
  const fileName = seed.fileName ?? 'otto-seed.sqlite3.gz';
  const madeAt = Date.now();
  let base = '/';
  let made: Promise<Uint8Array> | undefined;
  const make = () =>
    (made ??= (async () => {
      const { createMockApi, exportSeedDatabase } = await import('../index');
      const api = await createMockApi({ seed: { count: seed.count ?? 500, fakerSeed: seed.fakerSeed ?? 1, jobs: seed.jobs ?? true }, now: () => madeAt });
      try {
        return gzipSync(exportSeedDatabase(api.store, madeAt), { level: 9 });
      } finally {
        await api.close();
      }
    })());
  return {
    name: 'otto-mock-backend:seed-file',
    config(config) {
      // Read by serveMockApiInWorker: where the file is served.
      // From the origin's root: the worker resolves it against its own URL otherwise.
      const base = config.base?.startsWith('/') ? config.base : '/';
      return { define: { __OTTO_MOCK_SEED_FILE__: JSON.stringify(`${base}${fileName}`) } };
    },
    configResolved(config) {
      base = config.base;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== `${base}${fileName}`) return next();
        make().then(
          (body) => {
            res.writeHead(200, { 'Content-Type': 'application/gzip', 'Cache-Control': 'no-cache' });
            res.end(body);
          },
          (error: unknown) => next(error),
        );
      });
    },
    async generateBundle() {
      if (this.environment?.config.build.ssr) return;
      this.emitFile({ type: 'asset', fileName, source: await make() });
    },
  };
}

function isSqliteWasmModule(id: string): boolean {
  const file = id.split('?')[0] ?? id;
  return file.includes(`${sqliteWasm}/`) || file.includes('@sqlite.org+sqlite-wasm@');
}

/** Whether the app gets `@otto/mock-backend` from an installed package (not a linked workspace one). */
function installedInNodeModules(root: string): boolean {
  try {
    const manifest = createRequire(join(root, 'package.json')).resolve('@otto/mock-backend/package.json');
    return realpathSync(manifest).includes(`${sep}node_modules${sep}`);
  } catch {
    return false;
  }
}
