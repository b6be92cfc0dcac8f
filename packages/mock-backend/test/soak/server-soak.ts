// The HTTP server soak (issue 12, item 5): `otto-mock-server` as a process of its own on a SQLite
// file, a bounded pool of clients on loopback sending the mixed workload, the process killed with
// SIGKILL in the middle, restarted on the same file, the rest of the workload sent, and then every
// acknowledged write looked for in the file (and `PRAGMA integrity_check` run on it).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SoakWorkload, verify, type Outcome, type SoakFigures, type Verification } from './workload';

const serverProcess = fileURLToPath(new URL('./server-process.mjs', import.meta.url));

export interface ServerSoakReport {
  kind: 'http-server';
  date: string;
  machine: { cpus: number; model: string; loadAverage: number[]; node: string };
  /** Requests issued when the server was killed. */
  killedAtRequest: number;
  figures: SoakFigures;
  verification: Verification;
  integrityCheck: string[];
  restartMs: number;
}

interface RunningServer {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
}

/** Starts the server on `file`; resolves once it prints where it listens. */
function startServer(file: string, port: number, seed: number): Promise<RunningServer> {
  const child = spawn(process.execPath, [serverProcess, '--port', String(port), '--host', '127.0.0.1', '--db', file, '--seed', String(seed), '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve({ child, port: Number(match[1]), exited });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`otto-mock-server exited (${code}) before listening:\n${output}`)));
  });
}

/**
 * Runs the soak and returns its figures; the caller asserts on them.
 * @example
 * const report = await runServerSoak({ requests: 2000, clients: 50 });
 */
export async function runServerSoak(options: { requests: number; clients: number; seed?: number }): Promise<ServerSoakReport> {
  const dir = mkdtempSync(join(tmpdir(), 'otto-server-soak-'));
  const file = join(dir, 'soak.sqlite3');
  const seed = options.seed ?? 200;
  // Bounded: at most `clients` sockets, each kept alive between requests.
  let agent = new Agent({ keepAlive: true, maxSockets: options.clients });
  let server = await startServer(file, 0, seed);
  const port = server.port;
  const killAt = Math.floor(options.requests / 2);
  let killedAtRequest = 0;
  // Whether the server runs, and how often it was killed: a request sent while it was down, or in
  // flight when it was killed, was cut off by the test; any other request must get an answer.
  let serverUp = true;
  let kills = 0;

  const transport = (req: { method: string; path: string; body?: unknown }): Promise<Outcome> =>
    new Promise((resolve) => {
      const sentWhileUp = serverUp;
      const killsWhenSent = kills;
      const noAnswer = (error: Error) =>
        resolve(
          !sentWhileUp
            ? { error: error.message, cutOff: 'sent while the server was down (killed by the test)' }
            : kills !== killsWhenSent
              ? { error: error.message, cutOff: 'in flight when the test killed the server' }
              : { error: error.message },
        );
      const body = req.body === undefined ? undefined : JSON.stringify(req.body);
      const r = request(
        {
          host: '127.0.0.1',
          port,
          method: req.method,
          path: req.path,
          agent,
          headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = text;
            }
            resolve({ status: res.statusCode ?? 0, json });
          });
          res.on('error', noAnswer);
        },
      );
      r.on('error', noAnswer);
      r.end(body);
    });

  const workload = new SoakWorkload({
    requests: options.requests,
    clients: options.clients,
    tag: 'Serversoak',
    transport,
    onIssued: (issued) => {
      if (issued === killAt) {
        killedAtRequest = issued;
        // In the middle of the work: every other client has a request in flight.
        serverUp = false;
        kills++;
        server.child.kill('SIGKILL');
        workload.stop();
      }
    },
  });
  const started = performance.now();
  try {
    await workload.run();
    await server.exited;
    // Restart on the same file and port; the clients carry on from where they were.
    agent.destroy();
    agent = new Agent({ keepAlive: true, maxSockets: options.clients });
    const restartStarted = performance.now();
    server = await startServer(file, port, seed);
    serverUp = true;
    const restartMs = performance.now() - restartStarted;
    workload.resume();
    await workload.run();
    const durationMs = performance.now() - started;
    agent.destroy();
    server.child.kill('SIGTERM');
    await server.exited;

    const db = new Database(file, { readonly: true });
    let verification: Verification;
    let integrityCheck: string[];
    try {
      verification = verify(workload, (sql) => db.prepare(sql).all() as Record<string, unknown>[]);
      integrityCheck = (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((r) => r.integrity_check);
    } finally {
      db.close();
    }
    return {
      kind: 'http-server',
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', loadAverage: loadavg(), node: process.version },
      killedAtRequest,
      figures: workload.report(durationMs),
      verification,
      integrityCheck,
      restartMs: Math.round(restartMs),
    };
  } finally {
    agent.destroy();
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
