import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

export interface OttoSeedScreenOptions {
  /** The moment the first-start data was made at (`ottoSeedData`'s `now`). */
  generatedAt: number;
  /** @default 500 */
  count?: number;
  /** @default 20261123 */
  fakerSeed?: number;
  /**
   * A build whose API is a server (`VITE_OTTO_API_BASE_URL`), or one that shows nothing before
   * the app (`OTTO_KEPT_SCREEN=off`: the bench's MSW variant): kept-screen.js is left out of
   * app.html and no first visit's screen is made.
   */
  remote?: boolean;
}

/**
 * The first visit's screen (decision 0009), made at build time: the app's /biz/customers rendered
 * in jsdom over the first-start data (build/render-seed-screen.mjs, in a Node process of its own),
 * put in app.html as a JSON data block (`#otto-seed-screen`; not a script the page runs, so the
 * Content-Security-Policy is unchanged). public/kept-screen.js shows it on a first visit, with
 * its dates moved to the moment the page opened, as the database about to be made will hold them.
 * @example
 * export default defineConfig({ plugins: [ottoSeedData({ now }), ottoSeedScreen({ generatedAt: now })] });
 */
export function ottoSeedScreen(options: OttoSeedScreenOptions): Plugin {
  const off = options.remote || process.env.OTTO_KEPT_SCREEN === 'off';
  let rendered: Promise<string> | undefined;
  const render = () =>
    (rendered ??= new Promise<string>((resolve, reject) => {
      const script = fileURLToPath(new URL('./build/render-seed-screen.mjs', import.meta.url));
      const args = [script, String(options.generatedAt), String(options.count ?? 500), String(options.fakerSeed ?? 20261123)];
      const run = { cwd: fileURLToPath(new URL('.', import.meta.url)), maxBuffer: 16 * 1024 * 1024, timeout: 120_000 };
      execFile(process.execPath, args, run, (error, stdout, stderr) => {
        if (error) return reject(new Error(`otto-seed-screen: rendering the first visit's screen failed: ${stderr || error.message}`));
        try {
          const screen = JSON.parse(stdout) as { generatedAt?: unknown; html?: unknown; answer?: { result?: { data?: unknown } } };
          if (
            screen.generatedAt !== options.generatedAt ||
            typeof screen.html !== 'string' ||
            !screen.html.includes('<table') ||
            !Array.isArray(screen.answer?.result?.data)
          ) {
            throw new Error('it holds no customer list');
          }
          resolve(JSON.stringify(screen));
        } catch (problem) {
          reject(new Error(`otto-seed-screen: the first visit's screen is not usable (${problem instanceof Error ? problem.message : String(problem)}).`));
        }
      });
    }));
  return {
    name: 'otto-seed-screen',
    apply: 'build',
    buildStart() {
      // Renders while the app bundles.
      if (!off) void render().catch(() => undefined);
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        if (!ctx.filename.endsWith('app.html')) return html;
        if (off) return html.replace(/\s*<!--[^>]*-->\s*<script src="\/kept-screen\.js" async><\/script>/, '');
        // JSON in an HTML data block: no "<" can end it early.
        const json = (await render()).replaceAll('<', '\\u003c');
        return html.replace(/\s*<\/body>/, `\n    <script type="application/json" id="otto-seed-screen">${json}</script>\n  </body>`);
      },
    },
  };
}
