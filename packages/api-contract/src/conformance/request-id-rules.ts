import { customerSchema } from '../customer';
import { totalCountHeader } from '../limits';
import { requestIdHeader } from '../request-id';
import { check, expectBody, expectError, expectStatus } from './kit-client';
import type { ConformanceRule } from './rule-context';

/** Request ids (X-Otto-Request-Id) name one request each (decision 0121). */
export const requestIdRules: ConformanceRule[] = [
  {
    id: 'request-id.bound',
    title: 'A write sent again with its X-Otto-Request-Id gets its first answer and runs once; the same id with another body, path or method answers 422 REQUEST_ID_REUSED and runs nothing.',
    async run(ctx) {
      const word = `${ctx.token}rid`;
      const id = `kit-${word}`;
      const sent = { full_name: `Kit ${word}`, email: `kit.${word}@example.com`, phone: '555 0801' };
      const headers = { [requestIdHeader]: id };
      const first = await ctx.api.call('POST', '/customers', { body: sent, headers });
      expectStatus(first, 200);
      const created = expectBody(first, customerSchema, 'the created customer');
      const again = await ctx.api.call('POST', '/customers', { body: sent, headers });
      expectStatus(again, 200);
      check(again.text === first.text, () => `the same request under the same id should get the first answer: ${first.describe()} then ${again.describe()}`);
      expectError(await ctx.api.call('POST', '/customers', { body: { ...sent, full_name: `Kit other ${word}` }, headers }), 422, 'REQUEST_ID_REUSED');
      expectError(await ctx.api.call('PUT', `/customers/${created.id}`, { body: { ...sent, phone: '555 0802' }, headers }), 422, 'REQUEST_ID_REUSED');
      const found = await ctx.api.call('GET', '/customers', { filter: { queryText: word } });
      expectStatus(found, 200);
      check(found.headers.get(totalCountHeader) === '1', () => `the id's request should have run once and the others not at all: ${found.describe()}`);
      const unchanged = expectBody(await ctx.api.call('GET', `/customers/${created.id}`), customerSchema, 'the customer');
      check(unchanged.phone === sent.phone && unchanged.full_name === sent.full_name, () => `a refused request must change nothing, got ${JSON.stringify(unchanged)}`);
    },
  },
];
