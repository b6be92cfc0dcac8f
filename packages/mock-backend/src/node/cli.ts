// otto-mock-server: the Otto mock API over HTTP, its data in a SQLite file.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { MockApiExtension } from '../runtime/extensions';
import { createMockServer, isPostgresUrl } from './create-mock-server';

const usage = `Usage: otto-mock-server [options]

Serves the Otto mock API (the same handlers as the in-browser backend) over HTTP.

Options:
  --port <n>          TCP port, 0 for any free one (default 8787)
  --host <address>    interface to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --db <file|url>     where the data is kept across restarts: a SQLite file (needs better-sqlite3:
                      npm install better-sqlite3), or a PostgreSQL database postgres://user@host/name
                      (needs pg: npm install pg), which several servers may share. Set
                      OTTO_DATABASE_URL instead to keep a password out of the process list.
                      Without either the data lives in memory
  --pool-size <n>     with PostgreSQL: connections this server keeps open at most (default 10)
  --seed <n>          customers to create when the database is empty (default 500; 0 for none)
  --cors-origin <o>   another origin browsers may call from, besides http://localhost, 127.0.0.1
                      and [::1] on any port (repeatable; "*" is refused)
  --allowed-host <h>  another name the Host header may carry, besides localhost, 127.0.0.1
                      and [::1] (repeatable; "name" or "name:port")
  --token <t>         bearer token every call must carry (Authorization: Bearer <t>); beyond
                      loopback one is made and printed when not given. Set OTTO_API_TOKEN
                      instead to keep it out of the process list
  --tokens-file <f>   a file of tokens, one per person or device ("van-phone: <token>" per
                      line): each is accepted as --token is; deleting a line revokes it (the
                      file is read again when it changes). Or OTTO_API_TOKENS_FILE
  --max-per-client <n>
                      connections one client address may hold open (default 64); behind a
                      reverse proxy every client has the proxy's address: raise it there
  --extension <file>  a JavaScript module whose exports include extensions (defineExtension):
                      your own routes and tables, served and described in /api/openapi.json
                      beside Otto's (repeatable; SQLite only)
  --test-controls     answer the test controls (scenarios, fixtures, snapshots below
                      /api/__otto/) on a server with --db: anyone who may call it could then
                      replace its data. For development only; in memory they are always on,
                      on PostgreSQL never
  --quiet             do not log each request
  -h, --help          show this help`;

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        db: { type: 'string' },
        'pool-size': { type: 'string', default: '10' },
        seed: { type: 'string', default: '500' },
        'cors-origin': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        token: { type: 'string' },
        'tokens-file': { type: 'string' },
        'max-per-client': { type: 'string', default: '64' },
        extension: { type: 'string', multiple: true },
        'test-controls': { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  const seed = Number(values.seed);
  const poolSize = Number(values['pool-size']);
  const maxPerClient = Number(values['max-per-client']);
  if (
    !Number.isInteger(port) || port < 0 || port > 65535 || !Number.isInteger(seed) || seed < 0 ||
    !Number.isInteger(poolSize) || poolSize < 1 || !Number.isInteger(maxPerClient) || maxPerClient < 1
  ) {
    console.error(`--port must be 0–65535, --seed a whole number, --pool-size and --max-per-client at least 1.\n\n${usage}`);
    process.exit(2);
  }
  const db = values.db ?? (process.env.OTTO_DATABASE_URL?.trim() || undefined);
  const postgres = db !== undefined && isPostgresUrl(db);
  const givenToken = values.token ?? (process.env.OTTO_API_TOKEN?.trim() || undefined);
  const tokensFile = values['tokens-file'] ?? (process.env.OTTO_API_TOKENS_FILE?.trim() || undefined);
  const extensions = await loadExtensions(values.extension ?? []);
  const server = await createMockServer({
    ...(extensions.length ? { extensions } : {}),
    port,
    host: values.host,
    ...(db === undefined ? {} : postgres ? { database: db, poolSize } : { filename: db }),
    seed: seed === 0 ? false : { count: seed },
    ...(values['cors-origin'] ? { corsOrigin: values['cors-origin'] } : {}),
    ...(values['allowed-host'] ? { allowedHosts: values['allowed-host'] } : {}),
    ...(givenToken ? { token: givenToken } : {}),
    ...(tokensFile ? { tokensFile } : {}),
    serverLimits: { maxConnectionsPerClient: maxPerClient },
    ...(values['test-controls'] ? { testControls: true } : {}),
    ...(values.quiet
      ? {}
      : { onRequest: (e) => console.log(`${e.method} ${e.path} → ${e.status} (${e.durationMs} ms)`) }),
  });
  const { info } = server.api;
  const where = info.mode === 'memory' ? 'in memory (gone when the server stops)' : info.filename;
  const engine = info.mode === 'postgres' ? `PostgreSQL ${info.serverVersion}` : `SQLite ${info.sqliteVersion}`;
  console.log(`Otto mock API listening on ${server.url}`);
  console.log(`API reference: ${server.url}/docs (OpenAPI document: ${server.url}/openapi.json)`);
  if (server.token && !givenToken) {
    console.log(`Listening beyond loopback: every call needs Authorization: Bearer ${server.token}`);
    console.log(`(a token made for this run; pass --token or OTTO_API_TOKEN to keep one across restarts)`);
  } else if (server.token) {
    console.log('Every call needs Authorization: Bearer <the token given>.');
  }
  if (tokensFile) console.log(`The tokens in ${tokensFile} are accepted too (one per person or device; delete a line to revoke it).`);
  if (server.token && !values['allowed-host']) {
    console.log('Other machines reach it only by a name or address given with --allowed-host (the Host header is checked).');
  }
  if (server.testControls) {
    console.log(
      db === undefined
        ? 'Test controls are on (scenarios, fixtures, snapshots below /api/__otto/): this server is for development.'
        : 'Test controls are ON (--test-controls): anyone who may call this server can replace its data. Use it for development only.',
    );
  } else if (values['test-controls']) {
    console.log('Test controls stay off on PostgreSQL: a team server is not a test\'s to change.');
  }
  console.log(`Data: ${where}; ${engine}, schema ${info.schemaVersion}${info.seeded.customers ? `, seeded ${info.seeded.customers} customers` : ''}.`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping…`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** The extensions a module exports (its default export included), each module at least one. */
async function loadExtensions(files: readonly string[]): Promise<MockApiExtension[]> {
  const found: MockApiExtension[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
    const extensions = Object.values(module).filter(
      (value): value is MockApiExtension => typeof value === 'object' && value !== null && typeof (value as MockApiExtension).name === 'string' && Array.isArray((value as MockApiExtension).routes),
    );
    if (extensions.length === 0) throw new Error(`${file} exports no extension: export the result of defineExtension({ name, routes, migrations }).`);
    found.push(...new Set(extensions));
  }
  return found;
}

main().catch((error: unknown) => {
  console.error(`otto-mock-server: ${(error as Error)?.message ?? error}`);
  process.exit(1);
});
