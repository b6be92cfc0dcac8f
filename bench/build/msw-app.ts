import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { exportSeedData, type SeedData } from '@otto/mock-backend';
import { createSqliteStore } from '@otto/sqlite-store';
import { build, type Plugin } from 'vite';
import { arraysFromSeedFile, seedArrays, type ArrayData } from '../src/shared/seed-arrays';

/** The rows of the app's first-start database file (`otto-seed.sqlite3.gz`), with when they were made. */
async function seedFileRows(file: string): Promise<SeedData> {
  const store = createSqliteStore({ storage: 'memory', initialData: gunzipSync(readFileSync(file)) });
  await store.open();
  try {
    const made = store.get<{ generated_at: number }>('SELECT generated_at FROM otto_seed_origin');
    if (!made) throw new Error(`${file} is not a first-start database (it has no otto_seed_origin).`);
    return exportSeedData(store, made.generated_at);
  } finally {
    await store.close();
  }
}

/** What the MSW variant's build wrote beside its files (dist-msw-app/bench-variant.json). */
export interface MswVariantManifest {
  /** Where the arrays come from: the app's own first-start file, or Otto's seed run into arrays. */
  source: string;
  customers: number;
  jobs: number;
  /**
   * Any SQLite file or Otto DB worker in the variant, or a script that names otto-sw.js (which
   * would compete with MSW's service worker for the scope): then MSW's figure is not MSW's alone.
   */
  shipsOttoBackend: boolean;
  files: string[];
}

// The app's modules swapped for the MSW variant's: its backend start, and the DB worker its entry starts early.
const swaps: Record<string, string> = {
  'start-backend': fileURLToPath(new URL('../src/app-msw/start-backend.ts', import.meta.url)),
  'early-db-worker': fileURLToPath(new URL('../src/app-msw/early-db-worker.ts', import.meta.url)),
  'create-db-worker': fileURLToPath(new URL('../src/app-msw/create-db-worker.ts', import.meta.url)),
};
const dataId = 'virtual:otto-bench-msw-data';

/**
 * Builds apps/web from its own Vite config (root = apps/web) into `outDir`, with the app's backend
 * start module (src/backend/start-backend.ts) swapped for the bench's MSW one, MSW's worker script
 * at the root, and the app's own first data (the customers and jobs of its `otto-seed.sqlite3.gz`, so
 * build the app first) embedded as the MSW arrays. Nothing of it reaches the app's own build.
 */
export async function buildMswApp(options: { appDir: string; outDir: string; n: number; fakerSeed: number; now: number }): Promise<MswVariantManifest> {
  const target = join(options.appDir, 'src/backend/start-backend.ts');
  if (!existsSync(target)) throw new Error(`The MSW variant swaps ${target}, which no longer exists; update bench/build/msw-app.ts.`);
  // The same first data as Otto's: the app's own otto-seed.sqlite3.gz (its build made it), else
  // Otto's seed code run into arrays.
  const seedFile = join(options.appDir, 'dist', 'otto-seed.sqlite3.gz');
  const fromFile = existsSync(seedFile);
  const data: ArrayData = fromFile
    ? arraysFromSeedFile(await seedFileRows(seedFile), options.now)
    : seedArrays(options.n, true, options.fakerSeed, options.now);
  let swapped = 0;
  const swap: Plugin = {
    name: 'otto-bench-msw-backend',
    enforce: 'pre',
    async resolveId(source, importer, resolveOptions) {
      if (source === dataId) return `\0${dataId}`;
      const name = /(start-backend|early-db-worker|create-db-worker)(\.ts)?$/.exec(source)?.[1];
      if (!importer || !name) return null;
      const resolved = await this.resolve(source, importer, { ...resolveOptions, skipSelf: true });
      if (resolved?.id !== join(options.appDir, 'src/backend', `${name}.ts`)) return null;
      if (name === 'start-backend') swapped++;
      return swaps[name];
    },
    load(id) {
      // JSON.parse of a string parses faster than the same object literal (V8's advice for big data).
      return id === `\0${dataId}` ? `export default JSON.parse(${JSON.stringify(JSON.stringify(data))});` : null;
    },
    generateBundle() {
      const require = createRequire(import.meta.url);
      this.emitFile({ type: 'asset', fileName: 'mockServiceWorker.js', source: readFileSync(require.resolve('msw/mockServiceWorker.js'), 'utf8') });
    },
    buildEnd(error) {
      if (!error && swapped === 0) this.error(`Nothing imported ${target}: the MSW variant would not start MSW. Update bench/build/msw-app.ts.`);
    },
  };
  // Otto's kept first screen (decision 0009) is left out of this build: no script, no first
  // visit's screen (made at build time otherwise); `shipsOttoBackend` below says if one got in.
  process.env.OTTO_KEPT_SCREEN = 'off';
  await build({
    configFile: join(options.appDir, 'vite.config.ts'),
    root: options.appDir,
    mode: 'production',
    logLevel: 'warn',
    plugins: [swap],
    build: { outDir: options.outDir, emptyOutDir: true, sourcemap: false, reportCompressedSize: false },
  });
  // The app's config also writes Otto's first-start database; MSW serves the arrays above instead.
  rmSync(join(options.outDir, 'otto-seed.sqlite3.gz'), { force: true });
  // Public files are copied whatever the build: Otto's kept-screen.js (left out of app.html above).
  rmSync(join(options.outDir, 'kept-screen.js'), { force: true });
  const files = readdirSync(options.outDir, { recursive: true, encoding: 'utf8' });
  const manifest: MswVariantManifest = {
    source: fromFile ? 'apps/web/dist/otto-seed.sqlite3.gz' : `seedDatabase (faker seed ${options.fakerSeed}) into arrays`,
    customers: data.customers.length,
    jobs: data.jobs.length,
    shipsOttoBackend:
      files.some((f) => /sqlite|\.wasm$|db\.worker/i.test(f)) ||
      files.some((f) => (f.endsWith('.js') || f.endsWith('.html')) && f !== 'otto-sw.js' && readFileSync(join(options.outDir, f), 'utf8').includes('otto-sw')) ||
      files.some((f) => f.endsWith('.html') && /kept-screen\.js|otto-seed-screen/.test(readFileSync(join(options.outDir, f), 'utf8'))),
    files,
  };
  writeFileSync(join(options.outDir, 'bench-variant.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Run as a child process of `pnpm bench` (bin/build-msw-app.mjs), with NODE_ENV=production. */
export async function main(argv: readonly string[]): Promise<void> {
  const [appDir, outDir, n, fakerSeed, now] = argv;
  if (!appDir || !outDir) throw new Error('Usage: build-msw-app.mjs <appDir> <outDir> [n] [fakerSeed] [now]');
  const manifest = await buildMswApp({ appDir, outDir, n: Number(n ?? 500), fakerSeed: Number(fakerSeed ?? 42), now: Number(now ?? Date.now()) });
  console.log(`MSW variant: ${manifest.customers} customers, ${manifest.jobs} jobs from ${manifest.source}; ${manifest.shipsOttoBackend ? 'WARNING: it ships Otto backend files' : 'no Otto backend files'}.`);
}
