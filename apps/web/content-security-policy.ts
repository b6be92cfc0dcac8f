import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The Content-Security-Policy of the built app: its own scripts, styles, workers and the SQLite
 * wasm ('wasm-unsafe-eval' lets WebAssembly compile, nothing else), data: images, and API calls to
 * itself (or to the remote API origin when one is configured). No inline script, no eval, no
 * plugins, no framing.
 */
export function contentSecurityPolicy(remoteApiBaseUrl?: string): string {
  const connect = remoteApiBaseUrl ? `'self' ${new URL(remoteApiBaseUrl).origin}` : "'self'";
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Puts the policy in the built index.html as a meta tag (for any static host) and in the headers
 * of `vite preview` (which also covers the workers, whose policy comes from their own response).
 * The dev server keeps no policy: its hot reload injects inline scripts.
 */
export function ottoContentSecurityPolicy(remoteApiBaseUrl?: string): Plugin {
  const policy = contentSecurityPolicy(remoteApiBaseUrl);
  // frame-ancestors is ignored in a meta tag; it only works as a header.
  const metaPolicy = policy.replace(/; frame-ancestors [^;]+/, '');
  return {
    name: 'otto-content-security-policy',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) =>
        ctx.server
          ? html
          : html.replace(/<meta charset="UTF-8" \/>/i, (charset) => `${charset}\n    <meta http-equiv="Content-Security-Policy" content="${metaPolicy}" />`),
    },
    configurePreviewServer(server) {
      // The build decided the policy (its API origin); serve the same one as a header.
      const indexHtml = resolve(server.config.root, server.config.build.outDir, 'index.html');
      const built = existsSync(indexHtml)
        ? readFileSync(indexHtml, 'utf8').match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1]
        : undefined;
      const header = built ? `${built}; frame-ancestors 'none'` : policy;
      server.middlewares.use((_req, res, next) => {
        res.setHeader('Content-Security-Policy', header);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Referrer-Policy', 'no-referrer');
        next();
      });
    },
  };
}
