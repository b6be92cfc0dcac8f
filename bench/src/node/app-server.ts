import type { AddressInfo } from 'node:net';
import { preview, type Plugin } from 'vite';

/**
 * The production app (apps/web/dist, or another build of it in `outDir`) served by `vite preview`
 * with the app's own config (its headers included), remembering every path it served.
 */
export interface AppServer {
  origin: string;
  /** Paths served since the last call (query strings dropped). */
  takeServed(): string[];
  close(): Promise<void>;
}

export async function serveApp(appRoot: string, outDir?: string): Promise<AppServer> {
  let served: string[] = [];
  const record: Plugin = {
    name: 'otto-bench-record-requests',
    configurePreviewServer(server) {
      server.middlewares.use((req, _res, next) => {
        served.push((req.url ?? '/').split('?')[0] as string);
        next();
      });
    },
  };
  const server = await preview({
    root: appRoot,
    logLevel: 'warn',
    plugins: [record],
    ...(outDir ? { build: { outDir } } : {}),
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const { port } = server.httpServer.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    takeServed() {
      const list = served;
      served = [];
      return list;
    },
    close: () => server.close(),
  };
}
