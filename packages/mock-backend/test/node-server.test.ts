import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { customerSchema, limits, totalCountHeader } from '@otto/api-contract';
import { formatReport, runConformance } from '@otto/api-contract/conformance';
import { nativeModuleReady, nativeModuleWaitMs } from '@otto/vitest-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/node';
import { latestSchemaVersion } from '../src/database/migrations';
import { capturingLogger } from './helpers';

// On a new machine `npm test` builds better-sqlite3 beside the first tests: this file waits for it.
beforeAll(nativeModuleReady, nativeModuleWaitMs);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'otto-server-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const quiet = () => capturingLogger().logger;

/**
 * Whether another connection could take the file for itself. An open WAL connection keeps a shared
 * lock on the database file until it closes, so an exclusive lock is refused exactly while some
 * connection (a leaked one too) still has the file open. SQLite tracks these locks across
 * connections of one process as well, so this sees the server's own handle.
 */
function lockProbe(filename: string): 'free' | 'held' {
  const probe = new Database(filename, { timeout: 0, fileMustExist: true });
  try {
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('ROLLBACK');
    return 'free';
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return 'held';
    throw error;
  } finally {
    probe.close();
  }
}

describe('createMockServer', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await createMockServer({ port: 0, filename: join(dir, 'contract.sqlite'), seed: { count: 40, fakerSeed: 3 }, logger: quiet() });
  });
  afterAll(() => server.close());

  it('listens on 127.0.0.1 and keeps its data in the SQLite file', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(server.api.info).toMatchObject({ mode: 'file', filename: join(dir, 'contract.sqlite'), schemaVersion: latestSchemaVersion });
  });

  it('keeps a team\'s data: the test controls answer 404 in words on a file, and nothing changes', async () => {
    const before = Number((await fetch(`${server.url}/customers`)).headers.get(totalCountHeader));
    const calls: Array<[string, string, unknown]> = [
      ['PUT', 'data', { customers: [{ full_name: 'Only One', email: 'one@example.com', phone: '555 0199' }] }],
      ['POST', 'snapshot', { name: 'x' }],
      ['POST', 'snapshot/restore', { name: 'x' }],
      ['PUT', 'scenario', { name: 'server-error' }],
      ['POST', 'scenario', { path: '*', status: 500 }],
    ];
    for (const [method, path, body] of calls) {
      const res = await fetch(`${server.url}/__otto/${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, `${method} /__otto/${path}`).toBe(404);
      expect(((await res.json()) as { message: string }).message).toMatch(/test controls .* are off/);
    }
    const after = await fetch(`${server.url}/customers?otto-scenario=server-error`);
    expect(after.status).toBe(200);
    expect(Number(after.headers.get(totalCountHeader))).toBe(before);
  });

  it('answers the test controls on a file only when started with them on', async () => {
    const dev = await createMockServer({ port: 0, filename: join(dir, 'dev.sqlite'), seed: { count: 3, fakerSeed: 3 }, testControls: true, logger: quiet() });
    try {
      expect(dev.testControls).toBe(true);
      const res = await fetch(`${dev.url}/__otto/data`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customers: [{ full_name: 'Only One', email: 'one@example.com', phone: '555 0199' }] }),
      });
      expect(res.status).toBe(200);
      expect((await fetch(`${dev.url}/customers`)).headers.get(totalCountHeader)).toBe('1');
    } finally {
      await dev.close();
    }
    expect(server.testControls).toBe(false);
  });

  it('passes every rule of the conformance kit over real HTTP', async () => {
    const report = await runConformance({ fetch, baseUrl: server.url });
    expect(report.failed, formatReport(report)).toBe(0);
  }, 60_000);

  it('takes an import larger than the ordinary body limit, and refuses one over the import limit with 413 before reading it', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ full_name: `Served ${i}`, email: `served${i}@example.com`, phone: '555 0000' }));
    const body = JSON.stringify({ rows });
    expect(body.length).toBeGreaterThan(limits.maxBodyBytes);
    const res = await fetch(`${server.url}/customers/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ created: 3000, skipped: 0 });
    const undo = await fetch(`${server.url}/imports/last/undo`, { method: 'POST' });
    expect(await undo.json()).toMatchObject({ removed: 3000 });
    const tooBig = await fetch(`${server.url}/customers/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(limits.maxImportBodyBytes + 1),
    });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining(`${limits.maxImportBodyBytes} bytes`) });
  }, 60_000);

  it('lets a browser on a localhost origin call it and read X-Total-Count', async () => {
    const res = await fetch(`${server.url}/customers`, { headers: { origin: 'http://localhost:5173' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('access-control-expose-headers')).toBe(totalCountHeader);
    expect(Number(res.headers.get(totalCountHeader))).toBeGreaterThanOrEqual(40);

    const preflight = await fetch(`${server.url}/customers/1`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  it('answers an OPTIONS request that is not a preflight like any unknown method', async () => {
    const res = await fetch(`${server.url}/customers`, { method: 'OPTIONS' });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not found');
  });
});

describe('a server restarted on the same file', () => {
  it('keeps the data and does not seed again', async () => {
    const filename = join(dir, 'restart.sqlite');
    const first = await createMockServer({ port: 0, filename, seed: { count: 5 }, logger: quiet() });
    const created = customerSchema.parse(
      await (
        await fetch(`${first.url}/customers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ full_name: 'Kept Across Restarts', email: 'kept@example.com', phone: '555 0100' }),
        })
      ).json(),
    );
    await first.close();
    await first.close();

    const second = await createMockServer({ port: 0, filename, seed: { count: 5 }, logger: quiet() });
    try {
      expect(second.api.info.seeded).toEqual({ customers: 0, jobs: 0 });
      const res = await fetch(`${second.url}/customers/${created.id}`);
      expect(await res.json()).toEqual(created);
      const all = await fetch(`${second.url}/customers`);
      expect(all.headers.get(totalCountHeader)).toBe('6');
    } finally {
      await second.close();
    }
  });

  it('counts a search again when another connection (the sqlite3 shell, say) changed the file', async () => {
    const filename = join(dir, 'shared.sqlite');
    const server = await createMockServer({ port: 0, filename, seed: false, logger: quiet() });
    const other = new Database(filename);
    try {
      const total = async () => (await fetch(`${server.url}/customers?filterJson=${encodeURIComponent(JSON.stringify({ queryText: 'shell' }))}`)).headers.get(totalCountHeader);
      await fetch(`${server.url}/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ full_name: 'Shell One', email: 'one@example.com', phone: '555 0100' }),
      });
      expect(await total()).toBe('1');
      expect(await total()).toBe('1');
      other.prepare("INSERT INTO customers (full_name, email, phone, created_dt, modified_dt) VALUES ('Shell Two', 'two@example.com', '1', 1, 1)").run();
      expect(await total()).toBe('2');
    } finally {
      other.close();
      await server.close();
    }
  });

  it('fails to start on a port that is taken, and releases the database', async () => {
    const filename = join(dir, 'taken.sqlite');
    const holder = await createMockServer({ port: 0, seed: false, logger: quiet() });
    try {
      await expect(createMockServer({ port: holder.port, filename, seed: false, logger: quiet() })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(lockProbe(filename)).toBe('free');
      const again = await createMockServer({ port: 0, filename, seed: false, logger: quiet() });
      expect(lockProbe(filename)).toBe('held');
      await again.close();
      expect(lockProbe(filename)).toBe('free');
    } finally {
      await holder.close();
    }
  });
});
