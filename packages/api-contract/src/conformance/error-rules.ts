import { check, expectNotFoundText } from './kit-client';
import type { ConformanceRule } from './rule-context';

/** The spec's plain-text 404s (section 7, decision 0001). */
export const errorRules: ConformanceRule[] = [
  {
    id: 'errors.outside-api',
    title: 'A path that does not start with /api/ answers 404 with the text "Not found".',
    async run({ api }) {
      if (api.outsidePrefix === undefined) {
        throw new SkipRule(`the base URL's path ${api.apiPath || '/'} does not end with /api, so no path outside it is known`);
      }
      for (const path of ['/customers', '/apix/customers', '/']) {
        expectNotFoundText(await api.callUrl('GET', `${api.outsidePrefix}${path}`));
      }
    },
  },
  {
    id: 'errors.unknown-resource',
    title: 'An unknown resource under /api answers 404 with the text "Not found".',
    async run({ api }) {
      for (const path of ['', '/', '/estimates', '/customers/1/jobs', '/jobs/1/extra']) {
        expectNotFoundText(await api.call('GET', path));
      }
    },
  },
  {
    id: 'errors.unknown-method',
    title: 'A method a path does not take (DELETE the customer list, POST to a customer, PUT the list) answers 404 with the text "Not found".',
    async run(ctx) {
      const customer = await ctx.createCustomer(`${ctx.token}method`);
      const body = { full_name: customer.full_name, email: customer.email, phone: customer.phone };
      expectNotFoundText(await ctx.api.call('DELETE', '/customers'));
      expectNotFoundText(await ctx.api.call('POST', `/customers/${customer.id}`, { body }));
      expectNotFoundText(await ctx.api.call('PUT', '/customers', { body }));
      expectNotFoundText(await ctx.api.call('DELETE', '/jobs'));
      const still = await ctx.api.call('GET', `/customers/${customer.id}`);
      check(still.status === 200, () => `the customer should still exist: ${still.describe()}`);
    },
  },
];

/** Thrown by a rule that cannot apply to this backend; the rule counts as passed and says why. */
export class SkipRule extends Error {
  override readonly name = 'SkipRule';
}
