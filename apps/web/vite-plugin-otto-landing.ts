import react from '@vitejs/plugin-react';
import { createServer, type Plugin, type ResolvedConfig, type ViteDevServer } from 'vite';

const placeholder = '<!--otto-landing-->';

/**
 * The landing page as static HTML: `index.html` gets `src/routes/landing.tsx` rendered at build
 * time (React on the server, the same component the app shows), so `/` ships no JavaScript. Every
 * other page of the site is the app (`app.html`): the dev and preview servers answer `/biz/…` (and
 * any other path that is not a file) with it, like the service worker does offline.
 * @example
 * export default defineConfig({ build: { rollupOptions: { input: ['index.html', 'app.html'] } }, plugins: [ottoStaticLanding()] });
 */
export function ottoStaticLanding(): Plugin {
  let config: ResolvedConfig;

  async function render(server: ViteDevServer): Promise<string> {
    // React itself comes from Node (the server externalizes it, so the component shares it).
    const [{ renderToStaticMarkup }, { createElement }, { StaticRouter }, landing] = await Promise.all([
      import('react-dom/server'),
      import('react'),
      import('react-router'),
      server.ssrLoadModule('/src/routes/landing.tsx') as Promise<{ default: () => null }>,
    ]);
    return renderToStaticMarkup(createElement(StaticRouter, { location: '/' }, createElement(landing.default)));
  }

  /** Paths the app answers: everything but the landing page and files. */
  const appPath = (url: string | undefined) => {
    const path = (url ?? '/').split('?')[0] as string;
    return path !== '/' && path !== '/index.html' && !/\.[a-z0-9]+$/i.test(path) && !path.startsWith('/@') && !path.startsWith('/api/');
  };
  const toApp = (server: { middlewares: { use: (fn: (req: { url?: string }, res: unknown, next: () => void) => void) => void } }) =>
    server.middlewares.use((req, _res, next) => {
      if (appPath(req.url)) req.url = `/app.html${req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : ''}`;
      next();
    });

  return {
    name: 'otto-static-landing',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      toApp(server);
    },
    configurePreviewServer(server) {
      toApp(server);
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(html, ctx) {
        if (!html.includes(placeholder)) return html;
        let server = ctx.server;
        const own = !server;
        server ??= await createServer({
          configFile: false,
          root: config.root,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
          resolve: { conditions: [...config.resolve.conditions] },
          ssr: { resolve: { conditions: [...config.resolve.conditions] }, noExternal: [/^@otto\//], external: ['react', 'react-dom', 'react-router'] },
          plugins: [react()],
        });
        try {
          return html.replace(placeholder, await render(server));
        } finally {
          if (own) await server.close();
        }
      },
    },
  };
}
