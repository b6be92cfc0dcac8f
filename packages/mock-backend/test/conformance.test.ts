import { conformanceRules, formatReport, runConformance, type ConformanceFetch } from '@otto/api-contract/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../src/create-mock-api';
import type { MockApi } from '../src/types';
import { capturingLogger } from './helpers';

const baseUrl = 'http://localhost/api';
let api: MockApi;

beforeAll(async () => {
  // Existing data on purpose: the kit must work against a backend that already holds customers.
  api = await createMockApi({ seed: { count: 60, fakerSeed: 9 }, logger: capturingLogger().logger });
});
afterAll(() => api.close());

const direct: ConformanceFetch = (request) => api.fetch(request);

/** A backend that breaks one rule on purpose, to prove the kit notices. */
function brokenBackend(breakRequest: (request: Request) => Request | Response | Promise<Response>): ConformanceFetch {
  return async (request) => {
    const changed = await breakRequest(request);
    return changed instanceof Response ? changed : api.fetch(changed);
  };
}

describe('the conformance kit against the mock backend', () => {
  it('passes every rule', async () => {
    const report = await runConformance({ fetch: direct, baseUrl });
    expect(report.failed, formatReport(report)).toBe(0);
    expect(report.passed).toBe(conformanceRules.length);
    expect(report.rules.map((r) => r.id)).toEqual(conformanceRules.map((r) => r.id));
    expect(report.rules.filter((r) => r.skipped)).toEqual([]);
  }, 60_000);

  it('has a unique id and a title for every rule', () => {
    expect(new Set(conformanceRules.map((r) => r.id)).size).toBe(conformanceRules.length);
    expect(conformanceRules.length).toBeGreaterThanOrEqual(35);
    for (const rule of conformanceRules) expect(rule.title).toMatch(/\.$/);
  });

  it('runs only the rules asked for', async () => {
    const report = await runConformance({ fetch: direct, baseUrl, only: ['jobs.move'] });
    expect(report.rules.map((r) => r.id)).toEqual(['jobs.move.allowed', 'jobs.move.needs-start', 'jobs.move.forbidden']);
    expect(report.failed).toBe(0);
  });

  it('reports a backend whose PATCH answers 404 as failing exactly the PATCH rule', async () => {
    const patchIs404 = brokenBackend((request) =>
      request.method === 'PATCH' && new URL(request.url).pathname.startsWith('/api/customers/')
        ? new Response('Not found', { status: 404 })
        : request,
    );
    const report = await runConformance({ fetch: patchIs404, baseUrl });
    expect(report.rules.filter((r) => !r.ok).map((r) => r.id)).toEqual(['customers.update.patch']);
    expect(report.failed).toBe(1);
    expect(report.rules.find((r) => !r.ok)?.detail).toMatch(/^expected 200: PATCH \/api\/customers\/\d+ → 404 "Not found"$/);
  });

  it('reports a backend whose list ignores limit as failing exactly the paging rule', async () => {
    const ignoresLimit = brokenBackend((request) => {
      const url = new URL(request.url);
      const raw = url.searchParams.get('filterJson');
      if (url.pathname !== '/api/customers' || raw === null) return request;
      let filter: { limit?: unknown };
      try {
        filter = JSON.parse(raw) as { limit?: unknown };
      } catch {
        return request;
      }
      // The bug: a valid limit is dropped, so every page has the default size.
      if (typeof filter?.limit !== 'number' || !Number.isInteger(filter.limit) || filter.limit < 1 || filter.limit > 1000) {
        return request;
      }
      delete filter.limit;
      url.searchParams.set('filterJson', JSON.stringify(filter));
      return new Request(url, request);
    });
    const report = await runConformance({ fetch: ignoresLimit, baseUrl });
    expect(report.rules.filter((r) => !r.ok).map((r) => r.id)).toEqual(['customers.list.limit-offset']);
  });

  it('reports a backend whose search ignores the ranking as failing exactly the ranking rule', async () => {
    const newestFirst = brokenBackend(async (request) => {
      const response = await api.fetch(request);
      const url = new URL(request.url);
      if (url.pathname !== '/api/customers' || response.status !== 200 || !url.searchParams.has('filterJson')) return response;
      const rows = (await response.json()) as { modified_dt: number }[];
      rows.sort((a, b) => b.modified_dt - a.modified_dt);
      return Response.json(rows, { status: response.status, headers: response.headers });
    });
    const report = await runConformance({ fetch: newestFirst, baseUrl });
    // It also orders a sorted list newest first, which the sort rule catches.
    expect(report.rules.filter((r) => !r.ok).map((r) => r.id)).toEqual(['customers.list.sort', 'customers.search.ranking']);
  });

  it('reports a backend that drops X-Total-Count, and one that answers 500, without throwing', async () => {
    const noTotal = brokenBackend(async (request) => {
      const response = await api.fetch(request);
      const headers = new Headers(response.headers);
      headers.delete('X-Total-Count');
      return new Response(response.body, { status: response.status, headers });
    });
    const withoutTotal = await runConformance({ fetch: noTotal, baseUrl, only: ['customers.list.total-count'] });
    expect(withoutTotal.rules).toEqual([
      expect.objectContaining({ ok: false, detail: expect.stringContaining('expected a whole-number X-Total-Count header, got none') }),
    ]);

    const down = await runConformance({ fetch: async () => new Response('boom', { status: 500 }), baseUrl });
    expect(down.passed).toBe(0);
    expect(down.failed).toBe(conformanceRules.length);

    const unreachable = await runConformance({ fetch: () => Promise.reject(new TypeError('fetch failed')), baseUrl, only: ['customers.get'] });
    expect(unreachable.rules[0]?.detail).toMatch(/failed without an answer: fetch failed/);
  });

  it('reports a backend whose summary counts months in UTC whatever tz says as failing exactly the time-zone rule', async () => {
    const alwaysUtc = brokenBackend((request) => {
      const url = new URL(request.url);
      const raw = url.searchParams.get('filterJson');
      if (url.pathname !== '/api/reports/summary' || raw === null) return request;
      const filter = JSON.parse(raw) as { tz?: unknown };
      if (typeof filter.tz !== 'string' || filter.tz === 'Mars/Olympus') return request;
      url.searchParams.set('filterJson', JSON.stringify({ ...filter, tz: 'UTC' }));
      return new Request(url, request);
    });
    const report = await runConformance({ fetch: alwaysUtc, baseUrl, only: ['reports'] });
    expect(report.rules.filter((r) => !r.ok).map((r) => r.id)).toEqual(['reports.summary.time-zone']);
  });

  it('skips the outside-/api rule when the base URL does not end with /api', async () => {
    const report = await runConformance({
      fetch: (request) => api.fetch(new Request(request.url.replace('/v1/', '/api/'), request)),
      baseUrl: 'http://localhost/v1',
      only: ['errors.outside-api'],
    });
    expect(report.rules).toEqual([expect.objectContaining({ ok: true, skipped: true })]);
  });
});
