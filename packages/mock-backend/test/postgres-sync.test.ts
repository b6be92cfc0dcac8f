// Sync on PostgreSQL through two servers (issue 40, decision 0163): positions follow commit order,
// so a device pulling while both servers write misses nothing; a push is applied once whichever
// server it is sent to again. The two servers run in the test's process, each with its own pool
// (as two processes would have); the server killed in the middle of a push is a process of its own
// (SIGKILL).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestPostgres } from '@otto/postgres-testing';
import { describeIfPostgres, sharedTestPostgres } from '@otto/postgres-testing/vitest';
import { syncPullSchema, syncPushSchema, type SyncPull, type SyncWrite } from '@otto/api-contract';
import { createMockServer, type MockServer } from '../src/node';
import { capturingLogger } from './helpers';

const serverProcess = fileURLToPath(new URL('./soak/server-process.mjs', import.meta.url));

/** otto-mock-server as a process of its own on `database`, for a test to SIGKILL; resolves with its API URL. */
async function startProcess(database: string) {
  const child = spawn(process.execPath, [serverProcess, '--port', '0', '--db', database, '--seed', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  return { url, kill: () => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGKILL'))) };
}

describeIfPostgres('sync through two servers on one PostgreSQL', () => {
  let pg: TestPostgres;
  let database: string;
  let one: MockServer;
  let two: MockServer;
  const log = capturingLogger();

  beforeAll(async () => {
    pg = await sharedTestPostgres();
    database = await pg.createDatabase('otto_sync');
    one = await createMockServer({ port: 0, database, poolSize: 8, seed: { count: 20, fakerSeed: 5 }, logger: log.logger });
    two = await createMockServer({ port: 0, database, poolSize: 8, seed: false, logger: log.logger });
  }, 120_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await pg?.stop();
  });

  const post = async (server: MockServer, path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const pull = async (server: MockServer, query: Record<string, unknown>): Promise<SyncPull> => {
    const res = await fetch(`${server.url}/sync/pull?filterJson=${encodeURIComponent(JSON.stringify(query))}`);
    expect(res.status).toBe(200);
    return syncPullSchema.parse(await res.json());
  };
  /** A device's customers, kept only from pulls, and its position. */
  const device = () => {
    const customers = new Map<string, string>();
    let at: { epoch: string; since: number } | undefined;
    return {
      customers,
      async sync(server: MockServer) {
        let page = await pull(server, at ?? {});
        for (;;) {
          if (page.reset) customers.clear();
          for (const c of page.records.customers) customers.set(c.id, c.full_name);
          for (const id of page.deleted.customers) customers.delete(id);
          if (!page.next) break;
          page = await pull(server, { page: page.next });
        }
        at = { epoch: page.epoch, since: page.position };
      },
    };
  };

  it('a device pulling from one server while both write misses no write, and ends equal to the server', async () => {
    const watcher = device();
    await watcher.sync(two);
    let writing = true;
    const writes = (server: MockServer, prefix: string) =>
      Promise.all(
        Array.from({ length: 4 }, async (_, lane) => {
          for (let i = 0; i < 25; i++) {
            const reply = await post(server, '/customers', { full_name: `${prefix} ${lane}-${i}`, email: `${prefix}${lane}x${i}@example.com`, phone: '555 0100' });
            expect(reply.status).toBe(200);
          }
        }),
      );
    const pulling = (async () => {
      while (writing) await watcher.sync(two);
    })();
    await Promise.all([writes(one, 'One'), writes(two, 'Two')]);
    writing = false;
    await pulling;
    await watcher.sync(two);
    const fresh = device();
    await fresh.sync(one);
    expect(fresh.customers.size).toBe(220);
    expect(watcher.customers).toEqual(fresh.customers);
  });

  it('a push sent again to the other server after its answer was lost runs nothing twice', async () => {
    const writes: SyncWrite[] = Array.from({ length: 30 }, (_, i) => ({
      request_id: `van:${i}`,
      method: 'POST',
      path: '/customers',
      body: { full_name: `Van ${i}`, email: `van${i}@example.com`, phone: '555 0101' },
    }));
    const first = syncPushSchema.parse((await post(one, '/sync/push', { writes })).body).answers;
    expect(first.every((a) => a.status === 200 && !a.replayed)).toBe(true);
    const again = syncPushSchema.parse((await post(two, '/sync/push', { writes })).body).answers;
    expect(again.every((a) => a.status === 200 && a.replayed)).toBe(true);
    expect(again.map((a) => a.body)).toEqual(first.map((a) => a.body));
    // The same push sent to both at once: each write runs once.
    const both: SyncWrite[] = writes.map((w) => ({ ...w, request_id: `both:${w.request_id}`, body: { ...(w.body as object), full_name: `Both ${w.request_id}` } }));
    const [a, b] = await Promise.all([post(one, '/sync/push', { writes: both }), post(two, '/sync/push', { writes: both })]);
    const answersA = syncPushSchema.parse(a.body).answers;
    const answersB = syncPushSchema.parse(b.body).answers;
    for (let i = 0; i < both.length; i++) {
      expect([answersA[i]!.replayed, answersB[i]!.replayed].filter(Boolean)).toHaveLength(1);
      expect(answersA[i]!.body).toEqual(answersB[i]!.body);
    }
    const fresh = device();
    await fresh.sync(two);
    expect([...fresh.customers.values()].filter((name) => name.startsWith('Van ') || name.startsWith('Both '))).toHaveLength(60);
  });

  it('a server killed in the middle of a push loses nothing: the push sent again to another runs each write once', async () => {
    const killed = await startProcess(database);
    const writes: SyncWrite[] = Array.from({ length: 200 }, (_, i) => ({
      request_id: `killed:${i}`,
      method: 'POST',
      path: '/customers',
      body: { full_name: `Killed ${i}`, email: `killed${i}@example.com`, phone: '555 0102' },
    }));
    const count = async () => {
      const res = await fetch(`${one.url}/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: 'Killed', limit: 1 }))}`);
      return Number(res.headers.get('x-total-count'));
    };
    const sent = fetch(`${killed.url}/sync/push`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ writes }) }).then(
      (res) => res.status,
      () => 'cut off' as const,
    );
    // Killed once some of the writes are in, and before all are.
    for (let n = await count(); n < 20; n = await count()) await new Promise((resolve) => setTimeout(resolve, 5));
    await killed.kill();
    expect(await sent).toBe('cut off');
    const before = await count();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(200);
    // The device sends the same push again, to the server still running.
    const again = syncPushSchema.parse((await post(one, '/sync/push', { writes })).body).answers;
    expect(again.filter((a) => a.replayed)).toHaveLength(before);
    expect(again.every((a) => a.status === 200)).toBe(true);
    expect(await count()).toBe(200);
  }, 120_000);
});
