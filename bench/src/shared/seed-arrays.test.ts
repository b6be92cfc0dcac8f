import { jobSchema, jobCountsSchema, totalCountHeader, type Job } from '@otto/api-contract';
import { createMockApi, exportSeedData } from '@otto/mock-backend';
import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { arrayHandlers } from './array-handlers';
import { arraysFromSeedFile, seedArrays } from './seed-arrays';

const now = Date.UTC(2026, 10, 1);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

async function ottoWithTheSameSeed(n: number) {
  return createMockApi({ logger: quiet, seed: { count: n, fakerSeed: 42 }, now: () => now });
}

describe('seedArrays', () => {
  it('holds exactly the customers and jobs Otto seeds from the same faker seed and clock', async () => {
    const arrays = seedArrays(60, true, 42, now);
    const api = await ottoWithTheSameSeed(60);
    try {
      expect(arrays.customers).toHaveLength(60);
      const customers = api.store.all<Record<string, unknown>>('SELECT id, full_name, phone, email, created_dt, modified_dt FROM customers ORDER BY id');
      expect(arrays.customers).toEqual(customers.map((c) => ({ ...c, id: String(c.id) })));
      const res = await api.fetch(new Request(`http://localhost/api/jobs?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1000 }))}`));
      const jobs = jobSchema.array().parse(await res.json()).sort((a, b) => Number(a.id) - Number(b.id));
      expect(jobs.length).toBe(api.info.seeded.jobs);
      expect(arrays.jobs).toEqual(jobs);
    } finally {
      await api.close();
    }
  });
});

describe('arraysFromSeedFile', () => {
  it("turns the app's first-start file into the customers and jobs Otto serves from it, dates moved alike", async () => {
    const api = await ottoWithTheSameSeed(30);
    try {
      const later = now + 86_400_000;
      const arrays = arraysFromSeedFile(JSON.parse(JSON.stringify(exportSeedData(api.store, now))), later);
      const fresh = await createMockApi({ logger: quiet, seed: { data: exportSeedData(api.store, now) }, now: () => later });
      try {
        const res = await fresh.fetch(new Request(`http://localhost/api/jobs?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1000 }))}`));
        expect(arrays.jobs).toEqual(jobSchema.array().parse(await res.json()).sort((a, b) => Number(a.id) - Number(b.id)));
        const customers = fresh.store.all<Record<string, unknown>>('SELECT id, full_name, phone, email, created_dt, modified_dt FROM customers ORDER BY id');
        expect(arrays.customers).toEqual(customers.map((c) => ({ ...c, id: String(c.id) })));
      } finally {
        await fresh.close();
      }
    } finally {
      await api.close();
    }
  });
});

describe('arrayHandlers (the MSW peer)', () => {
  const ask = async (handlers: ReturnType<typeof arrayHandlers>, path: string, init?: RequestInit) => {
    const res = await getResponse(handlers, new Request(`http://localhost${path}`, init), { baseUrl: 'http://localhost' });
    if (!res) throw new Error(`No MSW handler answered ${path}.`);
    return res;
  };
  const filter = (f: unknown) => `filterJson=${encodeURIComponent(JSON.stringify(f))}`;

  it('answers the totals and counts Otto answers for the same data', async () => {
    const handlers = arrayHandlers(seedArrays(80, true, 42, now));
    const api = await ottoWithTheSameSeed(80);
    try {
      const otto = (path: string) => api.fetch(new Request(`http://localhost${path}`));
      // (Searches differ by design: the peer matches substrings, Otto words and prefixes.)
      for (const path of ['/api/customers', '/api/jobs', `/api/jobs?${filter({ status: 'paid' })}`, `/api/jobs?${filter({ customerId: '3' })}`]) {
        expect((await ask(handlers, path)).headers.get(totalCountHeader), path).toBe((await otto(path)).headers.get(totalCountHeader));
      }
      expect(jobCountsSchema.parse(await (await ask(handlers, '/api/jobs/counts')).json())).toEqual(await (await otto('/api/jobs/counts')).json());
      const first = (await (await ask(handlers, '/api/jobs')).json()) as Job[];
      expect(first.map((j) => j.id)).toEqual(((await (await otto('/api/jobs')).json()) as Job[]).map((j) => j.id));
    } finally {
      await api.close();
    }
  });

  it('creates, updates and moves in its arrays, as the bench times them', async () => {
    const data = seedArrays(20, true, 42, now);
    const handlers = arrayHandlers(data);
    const json = { 'content-type': 'application/json' };
    const created = (await (await ask(handlers, '/api/customers', { method: 'POST', headers: json, body: JSON.stringify({ full_name: 'New One', email: 'n@e.com', phone: '1' }) })).json()) as { id: string };
    expect(data.customers.at(-1)).toMatchObject({ id: created.id, full_name: 'New One' });
    await ask(handlers, `/api/customers/${created.id}`, { method: 'PUT', headers: json, body: JSON.stringify({ full_name: 'Renamed', email: 'n@e.com', phone: '1' }) });
    expect(data.customers.at(-1)?.full_name).toBe('Renamed');
    const job = (await (await ask(handlers, '/api/jobs', { method: 'POST', headers: json, body: JSON.stringify({ customer_id: created.id, title: 'Bench move' }) })).json()) as Job;
    expect(job).toMatchObject({ status: 'quote', customer_name: 'Renamed' });
    const moved = (await (await ask(handlers, `/api/jobs/${job.id}`, { method: 'PATCH', headers: json, body: JSON.stringify({ status: 'cancelled' }) })).json()) as Job;
    expect(moved.status).toBe('cancelled');
    expect((await ask(handlers, '/api/jobs/999999')).status).toBe(404);
  });
});
