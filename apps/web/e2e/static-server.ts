// A static file server for the offline and update tests: serves one build directory (switchable,
// like a deploy of a new build), with the SPA fallback of `vite preview`, and really stops.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { extname, join, normalize } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json',
};

export interface StaticServer {
  readonly url: string;
  /** Serves another build from now on (a deploy). */
  setRoot(dir: string): void;
  /** Stops listening and drops every open connection. */
  close(): Promise<void>;
}

export interface StaticServerOptions {
  /**
   * A script put first in every HTML page, inline, before the page's Content-Security-Policy
   * `<meta>` (a policy given that way applies only to what follows it), so that it runs before
   * anything else and, being part of the page, offline too: for a browser whose client cannot
   * watch the page itself (browsers/console-watch.ts). The rest of the page is unchanged.
   */
  headScript?: string;
  /** Text swapped in every HTML, script and JSON file served (a placeholder a build was made with, for the value of this run). */
  replace?: ReadonlyArray<readonly [string, string]>;
  /** Headers sent with every file (a Content-Security-Policy, as `vite preview` sends it). */
  headers?: Record<string, string>;
}

/** Serves `root` on 127.0.0.1:`port` (0: any free port). */
export async function startStaticServer(root: string, port = 0, options: StaticServerOptions = {}): Promise<StaticServer> {
  let current = root;
  const sockets = new Set<Socket>();
  const { headScript, replace = [], headers = {} } = options;
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(current, path));
    if (!file.startsWith(current) || !existsSync(file) || statSync(file).isDirectory()) {
      // Routes of the app (no file extension) get the app's page, like `vite preview`.
      file = extname(path) === '' ? join(current, 'app.html') : '';
    }
    if (!file || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': file.endsWith('otto-sw.js') || file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      ...headers,
    });
    if (replace.length > 0 && ['.html', '.js', '.json', '.webmanifest'].includes(extname(file))) {
      res.end(replace.reduce((text, [from, to]) => text.replaceAll(from, to), readFileSync(file, 'utf8')));
      return;
    }
    if (headScript && file.endsWith('.html')) {
      const html = readFileSync(file, 'utf8');
      const script = `<script>${headScript}</script>`;
      const csp = html.search(/<meta http-equiv="Content-Security-Policy"/i);
      res.end(csp >= 0 ? html.slice(0, csp) + script + html.slice(csp) : html.replace(/<head[^>]*>/i, (head) => head + script));
      return;
    }
    createReadStream(file).pipe(res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The static server did not report its port.');
  return {
    url: `http://127.0.0.1:${address.port}`,
    setRoot(dir) {
      current = dir;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A server that accepts connections on `port` and never answers: a hanging network. */
export async function startHangingServer(port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer(() => {
    // Never answer.
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
