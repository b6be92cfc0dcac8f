// Runs `otto-mock-server` (src/node/cli.ts, from source through Vite's module runner, so the tests
// need no build) as a process of its own, for tests that kill it with SIGKILL. The arguments are
// the server's own (e.g. `--port 0 --db file.sqlite3 --quiet`).
import { URL, fileURLToPath } from 'node:url';
import { createServer, createServerModuleRunner, defaultServerConditions } from 'vite';

const conditions = ['@otto/source', ...defaultServerConditions];
const vite = await createServer({
  configFile: false,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, watch: null, ws: false },
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  environments: { ssr: { resolve: { conditions } } },
});
const runner = createServerModuleRunner(vite.environments.ssr, { hmr: false });
await runner.import(fileURLToPath(new URL('../../src/node/cli.ts', import.meta.url)));
