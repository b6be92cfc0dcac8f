import { describe, expect, it } from 'vitest';
import { buildPath, matchRoute } from './routes';

describe('matchRoute', () => {
  it('captures the id of a customer path', () => {
    const m = matchRoute('GET', '/customers/42');
    expect(m.kind).toBe('match');
    expect(m.kind === 'match' && m.params).toEqual({ id: '42' });
  });

  it('treats PATCH like PUT on a customer', () => {
    const m = matchRoute('patch', '/customers/1');
    expect(m.kind === 'match' && m.route.method).toBe('PATCH');
  });

  it('tells a known path with an unknown method from an unknown path', () => {
    expect(matchRoute('DELETE', '/customers').kind).toBe('method-not-allowed');
    expect(matchRoute('POST', '/customers/1').kind).toBe('method-not-allowed');
    expect(matchRoute('GET', '/estimates').kind).toBe('no-route');
    expect(matchRoute('GET', '/customers/1/extra').kind).toBe('no-route');
  });
});

describe('buildPath', () => {
  it('fills and encodes path parameters under /api', () => {
    expect(buildPath('/customers/:id', { id: 'a/b' })).toBe('/api/customers/a%2Fb');
  });

  it('refuses to build a path with a missing parameter', () => {
    expect(() => buildPath('/customers/:id')).toThrow('Missing path parameter "id"');
  });
});

describe('job routes', () => {
  it('matches the counts path before a job id', () => {
    const m = matchRoute('GET', '/jobs/counts');
    expect(m.kind === 'match' && m.route.path).toBe('/jobs/counts');
    const byId = matchRoute('GET', '/jobs/12');
    expect(byId.kind === 'match' && byId.params).toEqual({ id: '12' });
  });
});
