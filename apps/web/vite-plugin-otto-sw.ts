import { buildClassicScript } from '@otto/browser-testing';
import type { Plugin, ResolvedConfig } from 'vite';

export interface OttoServiceWorkerOptions {
  /**
   * Module that is the service worker's source.
   * @default '@otto/mock-backend/otto-sw.js'
   */
  entry?: string;
  /**
   * File name at the app root; never hashed, since the registration URL must stay the same.
   * @default 'otto-sw.js'
   */
  fileName?: string;
}

/**
 * Serves the Otto service worker at the app root: compiled on request by `vite` (dev), emitted as
 * an unhashed asset at the root of `dist` by `vite build`. The script is one classic (IIFE) file,
 * built with Vite's own `build()` from the same source the package publishes.
 * @example
 * export default defineConfig({ plugins: [react(), ottoServiceWorker()] });
 */
export function ottoServiceWorker(options: OttoServiceWorkerOptions = {}): Plugin {
  const entry = options.entry ?? '@otto/mock-backend/otto-sw.js';
  const fileName = options.fileName ?? 'otto-sw.js';
  let config: ResolvedConfig;
  let compiled: Promise<{ code: string; moduleIds: string[] }> | undefined;

  const compile = (minify: boolean) =>
    buildClassicScript({
      root: config.root,
      entry,
      fileName,
      conditions: config.resolve.conditions,
      minify,
      // A service worker with a precache (workbox's injection point) gets an empty one here.
      define: { 'self.__WB_MANIFEST': '[]', 'process.env.NODE_ENV': JSON.stringify(minify ? 'production' : 'development') },
    });

  const headers = {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'no-cache',
    'Service-Worker-Allowed': '/',
  };

  return {
    name: 'otto-service-worker',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      const path = `${config.base}${fileName}`;
      server.watcher.on('change', (file) => {
        compiled
          ?.then(({ moduleIds }) => {
            if (moduleIds.includes(file)) compiled = undefined;
          })
          .catch(() => undefined);
      });
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== path) return next();
        if (!compiled) {
          compiled = compile(false);
          // The script is built outside the dev module graph: watch its sources so an edit rebuilds it.
          compiled
            .then(({ moduleIds }) => server.watcher.add(moduleIds.filter((id) => !id.startsWith('\0'))))
            .catch(() => undefined);
        }
        compiled.then(
          ({ code }) => {
            res.writeHead(200, headers);
            res.end(code);
          },
          (error: unknown) => {
            compiled = undefined;
            next(error);
          },
        );
      });
    },
    configurePreviewServer(server) {
      const path = `${config.base}${fileName}`;
      server.middlewares.use((req, _res, next) => {
        if (req.url?.split('?')[0] === path) _res.setHeader('Service-Worker-Allowed', '/');
        next();
      });
    },
    async generateBundle() {
      if (config.command !== 'build' || config.build.ssr) return;
      const { code } = await compile(true);
      this.emitFile({ type: 'asset', fileName, source: code });
    },
  };
}
