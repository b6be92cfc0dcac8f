import { execFile } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

export interface OttoSeedDataOptions {
  /**
   * Customers to make (each with a history of jobs).
   * @default 500
   */
  count?: number;
  /**
   * faker's seed: the same data on every build (only its dates follow the build time).
   * @default 20261123
   */
  fakerSeed?: number;
  /**
   * File name at the app root (the file is gzipped: hosts rarely compress a SQLite file).
   * @default 'otto-seed.sqlite3.gz'
   */
  fileName?: string;
  /**
   * The moment the data is made at: its dates are relative to it (the first visit's screen, made
   * at build time from the same data, shares it).
   * @default Date.now() when the plugin is created
   */
  now?: number;
}

/**
 * Makes the first-start database at build time, in Node (faker never ships to the browser): the
 * customers and jobs `seedDatabase` makes, migrated to the latest schema, written as the SQLite
 * file `otto-seed.sqlite3.gz` (gzipped) at the app root (served by the dev server, emitted by `vite build`,
 * precached by the service worker). A database that does not exist yet starts as this file: no
 * migration, no inserts, only its dates move to that moment (`settleSeedDatabase`).
 * @example
 * export default defineConfig({ plugins: [react(), ottoSeedData()] });
 */
export function ottoSeedData(options: OttoSeedDataOptions = {}): Plugin {
  const fileName = options.fileName ?? 'otto-seed.sqlite3.gz';
  let config: ResolvedConfig;
  let made: Promise<Buffer> | undefined;

  // In a Node process of its own, on the built backend (turbo builds the packages before the app):
  // the process running Vite may load workspace packages from their TypeScript source (vitest).
  const script = `
    const { createMockApi, exportSeedDatabase } = await import('@otto/mock-backend');
    const now = ${options.now ?? Date.now()};
    const api = await createMockApi({ seed: { count: ${options.count ?? 500}, fakerSeed: ${options.fakerSeed ?? 20261123} }, now: () => now });
    process.stdout.write(exportSeedDatabase(api.store, now));
    await api.close();
  `;
  const make = () =>
    (made ??= new Promise<Buffer>((resolve, reject) => {
      const run = { cwd: config.root, maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' as const };
      execFile(process.execPath, ['--input-type=module', '-e', script], run, (error, stdout, stderr) => {
        if (error) reject(new Error(`otto-seed-data: making ${fileName} failed: ${stderr.toString() || error.message}`));
        else resolve(gzipSync(stdout, { level: 9 }));
      });
    }));

  return {
    name: 'otto-seed-data',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== `${config.base}${fileName}`) return next();
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
      if (config.command !== 'build' || config.build.ssr) return;
      this.emitFile({ type: 'asset', fileName, source: await make() });
    },
  };
}
