import { customerSchema, importResultSchema, jobSchema, limits, type ChangeEvent, type CustomerImportRow } from '@otto/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from './helpers';

let t: TestApi;
afterEach(() => t.api.close());

const ada = { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' };
const grace = { full_name: 'Grace Hopper', email: 'grace@example.com', phone: '555 0101' };

async function importCustomers(rows: CustomerImportRow[], extra: Record<string, unknown> = {}) {
  t.clock.advance();
  const res = await t.call('POST', '/api/customers/import', { rows, ...extra });
  return { res, result: res.status === 200 ? importResultSchema.parse(res.json) : undefined };
}

async function allCustomers() {
  const res = await t.call('GET', `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1000 }))}`);
  return customerSchema.array().parse(res.json).sort((a, b) => Number(a.id) - Number(b.id));
}

describe('POST /api/customers/import', { timeout: 60_000 }, () => {
  it('adds every valid row in one go, keeps text as text, and names each problem row', async () => {
    t = await startApi();
    const events: ChangeEvent[] = [];
    t.api.onChange((e) => events.push(e));
    const rows = [
      { full_name: '  Zoë Ådahl 🎉 ', email: 'zoe@example.com', phone: '+46 70 123' },
      { full_name: '=HYPERLINK("http://evil.example","click")', email: 'f@example.com', phone: '555' },
      { full_name: '<b>Bold</b> "quoted", with comma\nand a line break', email: 'b@example.com', phone: '1' },
      { full_name: '', email: 'noname@example.com', phone: '1' },
      { full_name: 'Bad Email', email: 'not-an-email', phone: '1' },
      { full_name: 'x'.repeat(limits.maxFullNameLength + 1), email: 'long@example.com', phone: '1' },
    ];
    const { res, result } = await importCustomers(rows);
    expect(res.status).toBe(200);
    expect(result).toMatchObject({ entity: 'customer', dryRun: false, created: 3, updated: 0, skipped: 3, duplicates: [] });
    expect(result?.importId).toMatch(/^\d+$/);
    expect(result?.issues).toEqual([
      { index: 3, path: 'full_name', message: 'Enter the full name.' },
      { index: 4, path: 'email', message: 'Enter an email address like name@example.com, or leave it empty.' },
      { index: 5, path: 'full_name', message: `Use at most ${limits.maxFullNameLength} characters.` },
    ]);
    const stored = await allCustomers();
    expect(stored.map((c) => c.full_name)).toEqual(['Zoë Ådahl 🎉', rows[1]?.full_name, rows[2]?.full_name]);
    expect(stored.every((c) => c.created_dt === t.clock.now() && c.modified_dt === t.clock.now())).toBe(true);
    expect(events).toEqual([{ entity: 'customer', kind: 'created', ids: stored.map((c) => c.id) }]);
    // The imported text is searchable like any customer.
    expect((await t.list({ queryText: 'adahl' })).json).toHaveLength(1);
  });

  it('a dry run answers the same and changes nothing', async () => {
    t = await startApi();
    await t.create(ada);
    const events: ChangeEvent[] = [];
    t.api.onChange((e) => events.push(e));
    const rows = [grace, { ...ada, full_name: 'Ada again' }, { ...grace, email: 'GRACE@example.com' }, { ...grace, email: 'bad' }];
    const dry = await importCustomers(rows, { dryRun: true, duplicates: 'update' });
    expect(dry.result).toMatchObject({ dryRun: true, importId: null, created: 1, updated: 2, skipped: 1 });
    expect(dry.result?.duplicates).toEqual([
      { index: 1, existingId: '1', earlierIndex: null, action: 'updated' },
      { index: 2, existingId: null, earlierIndex: 0, action: 'updated' },
    ]);
    expect(await allCustomers()).toHaveLength(1);
    expect(events).toEqual([]);
    expect((await t.call('GET', '/api/imports/last')).json).toBeNull();
    const real = await importCustomers(rows, { duplicates: 'update' });
    expect({ ...real.result, dryRun: true, importId: null }).toEqual(dry.result);
  });

  it('duplicates (same email ignoring case, existing or earlier row) follow the choice', async () => {
    t = await startApi();
    await t.create(ada);
    const rows = [{ ...ada, email: 'ADA@example.com', full_name: 'Ada L.' }, grace, { ...grace, phone: '999' }];

    const skip = await importCustomers(rows, { duplicates: 'skip' });
    expect(skip.result).toMatchObject({ created: 1, updated: 0, skipped: 2 });
    expect((await allCustomers()).map((c) => c.full_name)).toEqual(['Ada Lovelace', 'Grace Hopper']);

    await t.call('POST', '/api/imports/last/undo');
    const update = await importCustomers(rows, { duplicates: 'update' });
    expect(update.result).toMatchObject({ created: 1, updated: 2, skipped: 0 });
    expect((await allCustomers()).map((c) => [c.full_name, c.email, c.phone])).toEqual([
      ['Ada L.', 'ADA@example.com', '555 0100'],
      ['Grace Hopper', 'grace@example.com', '999'],
    ]);

    await t.call('POST', '/api/imports/last/undo');
    const create = await importCustomers(rows, { duplicates: 'create' });
    expect(create.result).toMatchObject({ created: 3, updated: 0, skipped: 0 });
    expect(await allCustomers()).toHaveLength(4);
  });

  it('an archived customer is not a duplicate: the row adds a customer', async () => {
    t = await startApi();
    const archived = customerSchema.parse((await t.create(ada)).json);
    t.clock.advance();
    expect((await t.call('POST', `/api/customers/${archived.id}/archive`)).status).toBe(200);
    const { result } = await importCustomers([ada]);
    expect(result).toMatchObject({ created: 1, skipped: 0, duplicates: [] });
  });

  it('refuses too many rows (400) and too many bytes (413) in words, changing nothing', async () => {
    t = await startApi();
    const many = Array.from({ length: limits.maxImportRows + 1 }, (_, i) => ({ full_name: `N${i}`, email: `n${i}@x.io`, phone: '1' }));
    const tooMany = await t.call('POST', '/api/customers/import', { rows: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'rows', message: expect.stringContaining(`at most ${limits.maxImportRows} rows`) }] });
    const big = JSON.stringify({ rows: [{ full_name: 'x'.repeat(limits.maxImportBodyBytes), email: 'a@b.co', phone: '1' }] });
    const tooBig = await t.call('POST', '/api/customers/import', big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.json).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining(`${limits.maxImportBodyBytes} bytes`) });
    for (const body of [{ rows: [] }, { rows: 'a,b' }, { rows: [{ full_name: 1, email: 'a', phone: 'b' }] }, { rows: [ada], duplicates: 'merge' }]) {
      const res = await t.call('POST', '/api/customers/import', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.any(String) });
    }
    // A body over the ordinary limit is still fine for an import.
    const rows = Array.from({ length: 2000 }, (_, i) => ({ full_name: `Person ${i}`, email: `p${i}@example.com`, phone: '555 0000' }));
    expect(JSON.stringify({ rows }).length).toBeGreaterThan(limits.maxBodyBytes);
    expect((await importCustomers(rows)).result?.created).toBe(2000);
    expect((await t.list({ limit: 1 })).headers.get('x-total-count')).toBe('2000');
  });

  it('lands whole or not at all: a failure midway leaves nothing', async () => {
    t = await startApi();
    // A trigger that fails on the third insert stands in for a full disk midway.
    t.api.store.exec(`CREATE TRIGGER fail_third AFTER INSERT ON customers WHEN new.full_name = 'Third' BEGIN SELECT RAISE(ABORT, 'disk full'); END;`);
    const res = await t.call('POST', '/api/customers/import', { rows: [ada, grace, { ...ada, full_name: 'Third', email: 't@example.com' }] });
    expect(res.status).toBe(500);
    expect(await allCustomers()).toEqual([]);
    expect((await t.call('GET', '/api/imports/last')).json).toBeNull();
  });
});

describe('full-text rows of imported customers (added in one statement, migration 12)', { timeout: 60_000 }, () => {
  const count = async (queryText: string) => Number((await t.list({ queryText })).headers.get('x-total-count'));

  it('finds every imported customer by name, email and phone digits, and none twice', async () => {
    t = await startApi();
    await t.create({ full_name: 'Before Import', email: 'before@example.com', phone: '+1 (836) 489-5133' });
    const rows = Array.from({ length: 300 }, (_, i) => ({ full_name: `Imported Person${i}`, email: `imp${i}@example.com`, phone: `+1 (212) 555-${String(1000 + i)}` }));
    expect((await importCustomers(rows)).result).toMatchObject({ created: 300 });
    expect(await count('imported')).toBe(300);
    expect(await count('person217')).toBe(1);
    expect(await count('imp42@example')).toBe(1);
    // Digits typed with any punctuation, at any position of four or more.
    expect(await count('555-1007')).toBe(1);
    expect(await count('2125551299')).toBe(1);
    expect(await count('4895133')).toBe(1);
    // The customer from before has exactly one full-text row still; the index holds one per customer.
    expect(await count('before')).toBe(1);
    expect(t.api.store.get<{ n: number }>('SELECT count(*) AS n FROM customers_fts')?.n).toBe(301);
  });

  it('leaves the trigger working for every write after it, and after an import that failed', async () => {
    t = await startApi();
    await importCustomers([ada]);
    await t.create({ full_name: 'Created Later', email: 'later@example.com', phone: '555 0199' });
    expect(await count('later')).toBe(1);
    t.api.store.exec(`CREATE TRIGGER fail_second AFTER INSERT ON customers WHEN new.full_name = 'Fails' BEGIN SELECT RAISE(ABORT, 'disk full'); END;`);
    expect((await t.call('POST', '/api/customers/import', { rows: [grace, { ...grace, full_name: 'Fails', email: 'f@example.com' }] })).status).toBe(500);
    expect(t.api.store.get<{ n: number }>('SELECT count(*) AS n FROM fts_deferred')?.n).toBe(0);
    await t.create({ full_name: 'After Failure', email: 'after@example.com', phone: '1' });
    expect(await count('after')).toBe(1);
    expect(await count('grace')).toBe(0);
  });
});

describe('undo of the last import', { timeout: 60_000 }, () => {
  it('removes exactly what it added and puts back what it updated', async () => {
    t = await startApi();
    const before = customerSchema.parse((await t.create(ada)).json);
    const other = customerSchema.parse((await t.create({ ...grace, email: 'other@example.com' })).json);
    const { result } = await importCustomers([{ ...ada, full_name: 'Ada Changed' }, grace, { full_name: 'New', email: 'new@example.com', phone: '1' }], {
      duplicates: 'update',
    });
    expect(result).toMatchObject({ created: 2, updated: 1 });
    const last = await t.call('GET', '/api/imports/last');
    expect(last.json).toEqual({ id: result?.importId, entity: 'customer', at: t.clock.now(), created: 2, updated: 1, skipped: 0 });
    const events: ChangeEvent[] = [];
    t.api.onChange((e) => events.push(e));
    t.clock.advance();
    const undo = await t.call('POST', '/api/imports/last/undo');
    expect(undo.status).toBe(200);
    expect(undo.json).toEqual({ id: result?.importId, entity: 'customer', removed: 2, restored: 1 });
    expect(await allCustomers()).toEqual([before, other]);
    expect((await t.list({ queryText: 'new' })).json).toEqual([]);
    expect(events.map((e) => [e.kind, e.ids.length])).toEqual([
      ['deleted', 2],
      ['updated', 1],
    ]);
    const again = await t.call('POST', '/api/imports/last/undo');
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('no import to undo') });
    expect((await t.call('GET', '/api/imports/last')).json).toBeNull();
  });

  it('refuses when a record it touched changed since, or a customer it added got a job; nothing undone', async () => {
    t = await startApi();
    const { result } = await importCustomers([ada, grace]);
    const [a, g] = await allCustomers();
    t.clock.advance();
    await t.call('PUT', `/api/customers/${g?.id}`, { ...grace, phone: '777' });
    const edited = await t.call('POST', '/api/imports/last/undo');
    expect(edited.status).toBe(409);
    expect(edited.json).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('1 customer this import touched has changed since') });

    await importCustomers([{ full_name: 'Jobbed', email: 'j@example.com', phone: '1' }]);
    const [, , jobbed] = await allCustomers();
    await t.call('POST', '/api/jobs', { customer_id: jobbed?.id, title: 'Roof' });
    const withJob = await t.call('POST', '/api/imports/last/undo');
    expect(withJob.status).toBe(409);
    expect(withJob.json).toMatchObject({ message: expect.stringContaining('has jobs now') });
    expect((await allCustomers()).map((c) => c.id)).toEqual([a?.id, g?.id, jobbed?.id]);
    expect(result?.importId).not.toBeNull();
  });

  it('an import that changes nothing leaves the one before undoable', async () => {
    t = await startApi();
    const first = await importCustomers([ada]);
    const nothing = await importCustomers([ada], { duplicates: 'skip' });
    expect(nothing.result).toMatchObject({ created: 0, skipped: 1, importId: null });
    expect((await t.call('GET', '/api/imports/last')).json).toMatchObject({ id: first.result?.importId });
    expect((await t.call('POST', '/api/imports/last/undo')).json).toMatchObject({ removed: 1 });
  });
});

describe('POST /api/jobs/import', { timeout: 60_000 }, () => {
  it('matches the customer by email, else exact name; unmatched or ambiguous rows are problems', async () => {
    t = await startApi();
    const a = customerSchema.parse((await t.create(ada)).json);
    await t.create({ ...grace, email: 'g1@example.com' });
    await t.create({ ...grace, email: 'g2@example.com' });
    const start = Date.UTC(2026, 11, 1, 9);
    const rows = [
      { title: 'Boiler', customer_email: 'ADA@example.com', status: 'scheduled' as const, price_cents: 12500, scheduled_start_dt: start },
      { title: 'Gutters', customer_name: 'Ada Lovelace', status: 'paid' as const },
      { title: 'Fence', customer_email: 'nobody@example.com', customer_name: 'Nobody' },
      { title: 'Roof', customer_name: 'Grace Hopper' },
      { title: 'Porch', customer_name: 'ada lovelace' },
      { title: 'Shed', customer_email: 'ada@example.com', status: 'scheduled' as const },
      { title: '', customer_email: 'ada@example.com' },
    ];
    const res = await t.call('POST', '/api/jobs/import', { rows });
    expect(res.status).toBe(200);
    const result = importResultSchema.parse(res.json);
    expect(result).toMatchObject({ entity: 'job', created: 2, updated: 0, skipped: 5 });
    expect(result.issues).toEqual([
      { index: 2, path: 'customer_email', message: 'No customer has the email nobody@example.com or the name “Nobody”. Add the customer first, or correct the row.' },
      { index: 3, path: 'customer_name', message: "2 customers are named “Grace Hopper”; give the customer's email to choose one." },
      { index: 4, path: 'customer_name', message: 'No customer has the name “ada lovelace”. Add the customer first, or correct the row.' },
      { index: 5, path: 'scheduled_start_dt', message: 'A scheduled job needs a start time.' },
      { index: 6, path: 'title', message: 'Enter a title.' },
    ]);
    const jobs = jobSchema.array().parse((await t.call('GET', '/api/jobs')).json);
    expect(jobs.map((j) => [j.title, j.customer_id, j.status, j.price_cents, j.scheduled_start_dt])).toEqual([
      ['Gutters', a.id, 'paid', 0, null],
      ['Boiler', a.id, 'scheduled', 12500, start],
    ].sort((x, y) => (x[0] === 'Gutters' ? -1 : 1) - (y[0] === 'Gutters' ? -1 : 1)));
    const counts = (await t.call('GET', '/api/jobs/counts')).json;
    expect(counts).toMatchObject({ all: 2, scheduled: 1, paid: 1 });
  });

  it('duplicates (same customer, title, start) follow the choice; undo restores the job and the counts', async () => {
    t = await startApi();
    const a = customerSchema.parse((await t.create(ada)).json);
    t.clock.advance();
    const job = jobSchema.parse((await t.call('POST', '/api/jobs', { customer_id: a.id, title: 'Boiler', description: 'Old boiler', price_cents: 100 })).json);
    const rows = [{ title: 'boiler', customer_email: 'ada@example.com', status: 'completed' as const, price_cents: 999 }];
    const skip = importResultSchema.parse((await t.call('POST', '/api/jobs/import', { rows })).json);
    expect(skip).toMatchObject({ created: 0, skipped: 1, duplicates: [{ index: 0, existingId: job.id, action: 'skipped' }] });
    t.clock.advance();
    const update = importResultSchema.parse((await t.call('POST', '/api/jobs/import', { rows, duplicates: 'update' })).json);
    expect(update).toMatchObject({ created: 0, updated: 1 });
    const updated = jobSchema.parse((await t.call('GET', `/api/jobs/${job.id}`)).json);
    expect(updated).toMatchObject({ title: 'boiler', description: 'Old boiler', status: 'completed', price_cents: 999 });
    expect(updated.status_dates.completed).toBe(t.clock.now());
    expect((await t.call('GET', '/api/jobs/counts')).json).toMatchObject({ quote: 0, completed: 1 });
    const undo = await t.call('POST', '/api/imports/last/undo');
    expect(undo.json).toMatchObject({ entity: 'job', removed: 0, restored: 1 });
    expect(jobSchema.parse((await t.call('GET', `/api/jobs/${job.id}`)).json)).toEqual(job);
    expect((await t.call('GET', '/api/jobs/counts')).json).toMatchObject({ quote: 1, completed: 0 });

    await t.call('POST', '/api/jobs/import', { rows: [{ title: 'Extra', customer_email: 'ada@example.com' }] });
    expect((await t.call('GET', '/api/jobs/counts')).json).toMatchObject({ all: 2 });
    await t.call('POST', '/api/imports/last/undo');
    expect((await t.call('GET', '/api/jobs/counts')).json).toMatchObject({ all: 1 });
    expect((await t.call('GET', `/api/jobs?filterJson=${encodeURIComponent('{"queryText":"extra"}')}`)).json).toEqual([]);
  });
});
