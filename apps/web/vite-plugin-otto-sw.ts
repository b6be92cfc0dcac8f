import { build, type Plugin, type ResolvedConfig } from 'vite';

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

  async function compile(minify: boolean): Promise<{ code: string; moduleIds: string[] }> {
    const result = await build({
      configFile: false,
      envDir: false,
      logLevel: 'warn',
      root: config.root,
      publicDir: false,
      resolve: { conditions: [...config.resolve.conditions] },
      // A service worker with a precache (workbox's injection point) gets an empty one here.
      define: { 'self.__WB_MANIFEST': '[]', 'process.env.NODE_ENV': JSON.stringify(minify ? 'production' : 'development') },
      build: {
        write: false,
        minify,
        sourcemap: false,
        target: 'es2022',
        modulePreload: false,
        copyPublicDir: false,
        reportCompressedSize: false,
        rollupOptions: {
          input: entry,
          output: { format: 'iife', entryFileNames: fileName },
        },
      },
    });
    for (const output of Array.isArray(result) ? result : [result]) {
      if (!('output' in output)) continue;
      for (const chunk of output.output) {
        if (chunk.type === 'chunk' && chunk.isEntry) return { code: chunk.code, moduleIds: [...chunk.moduleIds] };
      }
    }
    throw new Error(`otto-service-worker: building ${entry} produced no script.`);
  }

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
