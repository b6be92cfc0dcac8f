import { createSqliteStore } from '@otto/sqlite-store';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi } from '../src/create-mock-api';
import { latestSchemaVersion } from '../src/database/migrations';
import { defineExtension, defineRoute } from '../src/runtime/extensions';
import type { MockChangeEvent } from '../src/types';
import { notesExtension } from './fixtures/notes-extension';
import { startApi, type TestApi } from './helpers';

let t: TestApi | undefined;
afterEach(async () => {
  await t?.api.close();
  t = undefined;
});

describe('routes of your own (extensions)', () => {
  it('answers a list and a create next to Otto\'s routes, which stay as they are', async () => {
    t = await startApi({ extensions: [notesExtension], seed: { count: 3, fakerSeed: 1, jobs: false } });
    const empty = await t.call('GET', '/api/notes');
    expect(empty).toMatchObject({ status: 200, json: [] });
    expect(empty.headers.get('X-Total-Count')).toBe('0');

    const created = await t.call('POST', '/api/notes', { text: '  Call back on Monday ', customer_id: '2' });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ id: '1', text: 'Call back on Monday', customer_id: '2', created_dt: expect.any(Number) });
    const listed = await t.call('GET', `/api/notes?filterJson=${encodeURIComponent(JSON.stringify({ customer_id: '2' }))}`);
    expect(listed.json).toEqual([created.json]);
    expect(listed.headers.get('X-Total-Count')).toBe('1');

    const customers = await t.call('GET', '/api/customers');
    expect(customers.status).toBe(200);
    expect(customers.headers.get('X-Total-Count')).toBe('3');
    // Still the spec's plain 404 for a path nobody answers, and a method Otto does not have.
    expect(await t.call('GET', '/api/notebooks')).toMatchObject({ status: 404, text: 'Not found' });
    expect(await t.call('DELETE', '/api/notes')).toMatchObject({ status: 404, text: 'Not found' });
  });

  it('checks bodies with zod and answers the JSON error shape, saving nothing', async () => {
    t = await startApi({ extensions: [notesExtension] });
    const bad = await t.call('POST', '/api/notes', { text: '   ' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: 'VALIDATION_FAILED', message: 'Some fields need attention.', issues: [{ path: 'text', message: 'Write something.' }] });
    expect(await t.call('POST', '/api/notes', '{"text":')).toMatchObject({ status: 400, json: { code: 'INVALID_JSON' } });
    expect((await t.call('GET', '/api/notes')).json).toEqual([]);
  });

  it('runs a write in a transaction: a handler that throws after its insert leaves nothing behind', async () => {
    t = await startApi({ extensions: [notesExtension] });
    const events: MockChangeEvent[] = [];
    t.api.onChange<MockChangeEvent>((event) => events.push(event));
    const refused = await t.call('POST', '/api/notes', { text: 'For nobody', customer_id: '999' });
    expect(refused).toMatchObject({ status: 400, json: { code: 'VALIDATION_FAILED', issues: [{ path: 'customer_id', message: 'Customer 999 does not exist.' }] } });
    expect(t.api.store.get<{ n: number }>('SELECT count(*) AS n FROM notes')?.n).toBe(0);
    expect(events).toEqual([]);
  });

  it('publishes committed writes on the change feed with the entity the route names', async () => {
    t = await startApi({ extensions: [notesExtension] });
    const events: MockChangeEvent[] = [];
    t.api.onChange<MockChangeEvent>((event) => events.push(event));
    await t.call('POST', '/api/notes', { text: 'First' });
    await t.call('GET', '/api/notes');
    expect(events).toEqual([{ entity: 'note', kind: 'created', ids: ['1'] }]);
  });

  it("keeps its migrations apart from Otto's schema version, and applies only the new ones later", async () => {
    const store = createSqliteStore({ storage: 'memory' });
    await store.open();
    const first = await createMockApi({ store, seed: false, extensions: [notesExtension] });
    expect(first.info.schemaVersion).toBe(latestSchemaVersion);
    expect(store.userVersion()).toBe(latestSchemaVersion);
    expect(store.all('SELECT name, version FROM otto_extension_versions')).toEqual([{ name: 'notes', version: 1 }]);
    await first.fetch(new Request('http://localhost/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"kept"}' }));
    await first.close();

    const withTags = defineExtension({
      ...notesExtension,
      migrations: [...(notesExtension.migrations ?? []), { version: 2, name: 'note tags', up: "ALTER TABLE notes ADD COLUMN tag TEXT NOT NULL DEFAULT ''" }],
    });
    const second = await createMockApi({ store, seed: false, extensions: [withTags] });
    expect(store.all('SELECT name, version FROM otto_extension_versions')).toEqual([{ name: 'notes', version: 2 }]);
    expect(store.userVersion()).toBe(latestSchemaVersion);
    expect(store.all('SELECT text, tag FROM notes')).toEqual([{ text: 'kept', tag: '' }]);
    await second.close();

    // A failing migration is rolled back and says which extension and step failed.
    const broken = defineExtension({ ...withTags, migrations: [...(withTags.migrations ?? []), { version: 3, name: 'oops', up: 'ALTER TABLE nope ADD COLUMN x' }] });
    await expect(createMockApi({ store, seed: false, extensions: [broken] })).rejects.toThrow(/migration 3 \(oops\) of extension "notes" was rolled back/);
    expect(store.all('SELECT version FROM otto_extension_versions')).toEqual([{ version: 2 }]);
    await store.close();
  });

  it("refuses routes on Otto's own paths and duplicate names before opening anything", async () => {
    const onCustomers = defineRoute({ method: 'DELETE', path: '/customers/:id' }, () => ({ data: null }));
    await expect(createMockApi({ extensions: [{ name: 'x', routes: [onCustomers] }] })).rejects.toThrow(/DELETE \/customers\/:id of extension "x" is on one of Otto's own paths/);
    await expect(createMockApi({ extensions: [notesExtension, notesExtension] })).rejects.toThrow(/Two extensions are named "notes"/);
    const onControl = defineRoute({ method: 'GET', path: '/__otto/mine' }, () => ({ data: null }));
    await expect(createMockApi({ extensions: [{ name: 'y', routes: [onControl] }] })).rejects.toThrow(/below \/api\/__otto\/, where the mock's control routes are/);
  });

  it('answers 404 when path parameters fail their schema', async () => {
    const { z } = await import('zod');
    const getNote = defineRoute({ method: 'GET', path: '/notes/:id', params: z.object({ id: z.string().regex(/^\d+$/) }) }, ({ params, db }) => ({
      data: db.get('SELECT * FROM notes WHERE id = ?', [Number(params.id)]) ?? null,
    }));
    t = await startApi({ extensions: [{ ...notesExtension, routes: [...notesExtension.routes, getNote] }] });
    expect(await t.call('GET', '/api/notes/abc')).toMatchObject({ status: 404, json: { code: 'NOT_FOUND' } });
    expect(await t.call('GET', '/api/notes/7')).toMatchObject({ status: 200, json: null });
  });
});
