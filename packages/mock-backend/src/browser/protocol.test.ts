import { apiBasePath } from '@otto/api-contract';
import { describe, expect, it } from 'vitest';
import {
  apiPathPrefix,
  deserializeRequest,
  deserializeResponse,
  relayErrorResponse,
  relayErrorSerialized,
  serializeRequest,
  serializeResponse,
  transferablesOf,
} from './protocol';

describe('protocol', () => {
  it('relays the paths below the contract base path', () => {
    expect(apiPathPrefix).toBe(`${apiBasePath}/`);
  });

  it('round-trips a request with its method, headers and body', async () => {
    const original = new Request('http://localhost/api/customers?x=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace': 'a' },
      body: JSON.stringify({ full_name: 'Åsa Öberg' }),
    });
    const serialized = await serializeRequest(original);
    expect(transferablesOf(serialized)).toEqual([serialized.body]);
    const copy = deserializeRequest(structuredClone(serialized));
    expect(copy.method).toBe('POST');
    expect(copy.url).toBe('http://localhost/api/customers?x=1');
    expect(copy.headers.get('x-trace')).toBe('a');
    expect(await copy.json()).toEqual({ full_name: 'Åsa Öberg' });
  });

  it('sends no body for GET', async () => {
    const serialized = await serializeRequest(new Request('http://localhost/api/customers'));
    expect(serialized.body).toBeNull();
    expect(transferablesOf(serialized)).toEqual([]);
    expect(deserializeRequest(serialized).method).toBe('GET');
  });

  it('round-trips a response, and drops the body of a null-body status', async () => {
    const ok = deserializeResponse(
      await serializeResponse(new Response('[1]', { status: 200, headers: { 'X-Total-Count': '1' } })),
    );
    expect(ok.headers.get('x-total-count')).toBe('1');
    expect(await ok.json()).toEqual([1]);
    const empty = deserializeResponse({ status: 204, statusText: '', headers: [], body: new ArrayBuffer(2) });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('answers relay failures with the contract error shape', async () => {
    const res = relayErrorResponse(504, 'TIMEOUT', 'No answer in time.');
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ code: 'TIMEOUT', message: 'No answer in time.' });
    const serialized = deserializeResponse(relayErrorSerialized(503, 'SERVICE_UNAVAILABLE', 'No tab.'));
    expect(serialized.status).toBe(503);
    expect(await serialized.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'No tab.' });
  });
});

describe('long-running requests', () => {
  it('are exactly the calls the contract marks longRunning, and wait as long as the contract says', async () => {
    const { allRoutes, buildPath, limits } = await import('@otto/api-contract');
    const { isLongRunningRequest, longRequestTimeoutMs } = await import('./protocol');
    expect(longRequestTimeoutMs).toBe(limits.longRequestTimeoutMs);
    for (const route of allRoutes) {
      const url = `http://localhost${buildPath(route.path, { id: '7', paymentId: '8' })}`;
      expect(isLongRunningRequest(route.method, url), `${route.method} ${route.path}`).toBe(route.longRunning === true);
    }
    expect(isLongRunningRequest('GET', 'http://localhost/api/customers/import')).toBe(false);
  });
});
