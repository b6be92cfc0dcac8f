// A throwaway PostgreSQL server for Otto's tests (packages/mock-backend/test, apps/web/e2e) and
// benchmarks (bench/), without Docker: Debian's `initdb` and `pg_ctl` (package `postgresql`) make a
// cluster in a temporary directory, listening on 127.0.0.1 on a free port with its socket inside
// that directory. When the process is root (initdb refuses root), the cluster belongs to the
// `postgres` user Debian creates (or `nobody`) and its commands run through runuser.
// Plain JavaScript with hand-written types (index.d.ts), so that vitest, the bench's runner and tsc
// all use it without a build step; `describeIfPostgres` is in ./vitest.js, for code run by vitest.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * The folder holding initdb and pg_ctl: the newest /usr/lib/postgresql/<n>/bin, else PATH.
 * @returns {string | null}
 */
export function findPostgresBin() {
  const explicit = process.env.OTTO_POSTGRES_BIN;
  if (explicit) return existsSync(join(explicit, 'initdb')) && existsSync(join(explicit, 'pg_ctl')) ? explicit : null;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

const binDir = findPostgresBin();

/** Whether this machine can start a test PostgreSQL (initdb and pg_ctl were found). */
export const postgresAvailable = binDir !== null;

/**
 * Whether the PostgreSQL tests are skipped on purpose (OTTO_SKIP_POSTGRES=1, for a machine without
 * PostgreSQL). Without it a missing PostgreSQL fails them: a test that cannot run is not a pass.
 */
export const postgresSkipped = process.env.OTTO_SKIP_POSTGRES === '1';

/** Why PostgreSQL tests cannot run here, and how to fix it. */
export const postgresMissingMessage =
  'PostgreSQL tests need PostgreSQL\'s server binaries (initdb, pg_ctl), not found under /usr/lib/postgresql/*/bin or on PATH. ' +
  'Install them (Debian: `sudo apt-get install postgresql`) or set OTTO_POSTGRES_BIN to their folder; ' +
  'to skip these tests instead, set OTTO_SKIP_POSTGRES=1 (they are then counted as skipped).';

/**
 * The unprivileged user that owns the cluster when we are root: Debian's `postgres`, else `nobody`.
 * @returns {{ name: string, uid: number, gid: number } | null}
 */
function clusterUser() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const entry = passwd.find((line) => line.startsWith(`${name}:`));
    if (entry) {
      const [, , uid, gid] = entry.split(':');
      return { name, uid: Number(uid), gid: Number(gid) };
    }
  }
  throw new Error('running as root, and neither a "postgres" nor a "nobody" user exists to own a test PostgreSQL cluster');
}

/** A locale this machine has for a UTF-8 cluster. */
function pickLocale() {
  const result = spawnSync('locale', ['-a'], { encoding: 'utf8' });
  const available = (result.stdout ?? '').split('\n').map((l) => l.trim());
  for (const wanted of ['C.UTF-8', 'C.utf8', 'en_US.UTF-8', 'en_US.utf8']) {
    if (available.includes(wanted)) return wanted;
  }
  return 'C';
}

/**
 * A TCP port free on 127.0.0.1 a moment ago (for a server that must be told its port).
 * @returns {Promise<number>}
 */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A fresh initdb data directory for this machine's PostgreSQL, user and locale, kept in the
 * temporary directory: made in a folder of its own, then renamed into place, so processes that
 * race to make it each end with a whole one.
 * @param {string} bin
 * @param {{ name: string, uid: number, gid: number } | null} user
 * @param {(cmd: string, args: string[]) => import('node:child_process').SpawnSyncReturns<string>} exec
 * @returns {string}
 */
function clusterTemplate(bin, user, exec) {
  const locale = pickLocale();
  const key = `${bin}|${user?.name ?? process.getuid?.() ?? ''}|${locale}`.replace(/[^A-Za-z0-9.]+/g, '-');
  const template = join(tmpdir(), `otto-pg-template-${key}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const making = mkdtempSync(join(tmpdir(), 'otto-pg-making-'));
  chmodSync(making, 0o700);
  if (user) chownSync(making, user.uid, user.gid);
  const result = exec('initdb', ['-D', join(making, 'data'), '-U', 'otto', '--auth=trust', '-E', 'UTF8', `--locale=${locale}`, '--no-sync']);
  if (result.status !== 0) throw new Error(`initdb failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}`);
  try {
    renameSync(join(making, 'data'), template);
  } catch (error) {
    // Another process made it first: theirs is as good.
    if (!existsSync(join(template, 'PG_VERSION'))) throw error;
  }
  rmSync(making, { recursive: true, force: true });
  return template;
}

/** What tests want and PostgreSQL does not: durability (a test cluster is thrown away). */
const testSettings = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

/**
 * Starts a throwaway PostgreSQL server with one database (`otto`, user `otto`, trust auth).
 * @param {import('./index.d.ts').TestPostgresOptions} [options]
 * @returns {Promise<import('./index.d.ts').TestPostgres>}
 * @example
 * const pg = await startTestPostgres();
 * const store = await createPostgresStore({ connectionString: pg.connectionString });
 * // …
 * await pg.stop();
 */
export async function startTestPostgres(options = {}) {
  if (!binDir) throw new Error(postgresMissingMessage);
  const bin = binDir;
  const user = clusterUser();
  const dir = mkdtempSync(join(tmpdir(), options.dirPrefix ?? 'otto-pg-'));
  chmodSync(dir, 0o700);
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const port = await freePort();
  const host = '127.0.0.1';

  /** @param {string} cmd @param {string[]} args */
  const exec = (cmd, args) => {
    const [file, argv] = user ? ['runuser', ['-u', user.name, '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir, env: { ...process.env, LC_ALL: '', LANG: '' } });
    return result;
  };
  /** @param {string} cmd @param {string[]} args */
  const must = (cmd, args) => {
    const result = exec(cmd, args);
    if (result.status !== 0) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : '';
      throw new Error(`${cmd} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}\n${log}`);
    }
  };

  // initdb's output is the same for every cluster of this machine: made once (about 3 s), then
  // copied (a tenth of that) for each cluster; `cp -a` keeps its owner and modes.
  const template = clusterTemplate(bin, user, exec);
  const copied = spawnSync('cp', ['-a', template, data], { encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`copying the cluster template ${template} failed: ${copied.stderr}`);
  const settings = { ...(options.durable ? {} : testSettings), ...options.settings };
  const serverOptions = [`-p ${port} -k ${dir} -c listen_addresses=${host}`, ...Object.entries(settings).map(([key, value]) => `-c ${key}=${value}`)].join(' ');
  let running = false;
  const start = async () => {
    must('pg_ctl', ['-D', data, '-o', serverOptions, '-l', logFile, '-w', '-t', '60', 'start']);
    running = true;
  };
  const halt = async () => {
    if (!running) return;
    must('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    running = false;
  };
  // A test run that dies leaves no server behind.
  const onExit = () => {
    if (running) exec('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  await start();
  /** @param {string} name */
  const createDatabase = async (name) => {
    must('createdb', ['-h', host, '-p', String(port), '-U', 'otto', name]);
    return `postgres://otto@${host}:${port}/${name}`;
  };
  const connectionString = await createDatabase('otto');

  return {
    connectionString,
    host,
    port,
    halt,
    start,
    restart: async () => {
      await halt();
      await start();
    },
    createDatabase,
    stop: async () => {
      await halt();
      process.removeListener('exit', onExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A database of its own on a cluster that another process started (`startTestPostgres`, in a
 * vitest global setup: one cluster for every test file that needs one, instead of one each). Its
 * names are made unique with `suffix`, so files sharing the cluster never meet. It cannot be
 * halted or restarted: a file that stops its server needs a cluster of its own.
 * @param {{ host: string, port: number }} cluster
 * @param {string} suffix
 * @returns {Promise<import('./index.d.ts').TestPostgres>}
 */
export async function databaseOnCluster(cluster, suffix) {
  if (!binDir) throw new Error(postgresMissingMessage);
  const { host, port } = cluster;
  const tag = suffix.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  /** @param {string} name */
  const createDatabase = async (name) => {
    const unique = `${name}_${tag}`.slice(0, 63);
    const result = spawnSync(join(binDir, 'createdb'), ['-h', host, '-p', String(port), '-U', 'otto', unique], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`createdb ${unique} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}`);
    return `postgres://otto@${host}:${port}/${unique}`;
  };
  const shared = () => {
    throw new Error('This PostgreSQL cluster is shared by the test files: start one of your own (startTestPostgres) to stop or restart it.');
  };
  return {
    connectionString: await createDatabase('otto'),
    host,
    port,
    createDatabase,
    halt: async () => shared(),
    start: async () => shared(),
    restart: async () => shared(),
    // The cluster, and every database on it, goes when the run ends.
    stop: async () => undefined,
  };
}
