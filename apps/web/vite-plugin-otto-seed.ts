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
   * File name at the app root.
   * @default 'otto-seed.json'
   */
  fileName?: string;
}

/**
 * Makes the first-start data at build time, in Node (faker never ships to the browser): the
 * customers and jobs `seedDatabase` makes, written as `otto-seed.json` at the app root (served by
 * the dev server, emitted by `vite build`, precached by the service worker). The DB worker imports
 * it into an empty database, its dates moved to that moment.
 * @example
 * export default defineConfig({ plugins: [react(), ottoSeedData()] });
 */
export function ottoSeedData(options: OttoSeedDataOptions = {}): Plugin {
  const fileName = options.fileName ?? 'otto-seed.json';
  let config: ResolvedConfig;
  let made: Promise<string> | undefined;

  const make = () =>
    (made ??= (async () => {
      // The published build of the backend (turbo builds the packages before the app).
      const { createMockApi, exportSeedData } = await import('@otto/mock-backend');
      const now = Date.now();
      const api = await createMockApi({ seed: { count: options.count ?? 500, fakerSeed: options.fakerSeed ?? 20261123 }, now: () => now });
      try {
        return JSON.stringify(exportSeedData(api.store, now));
      } finally {
        await api.close();
      }
    })());

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
            res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
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
