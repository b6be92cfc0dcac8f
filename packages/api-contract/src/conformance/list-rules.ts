import { limits, totalCountHeader } from '../limits';
import { customerListSchema } from './customer-rules';
import { check, expectBody, expectError, expectStatus, expectTotal, tick, type KitClient, type Reply } from './kit-client';
import { pagingSetSize, type ConformanceRule } from './rule-context';

async function list(api: KitClient, filter?: unknown): Promise<{ reply: Reply; ids: string[]; names: string[]; modified: number[] }> {
  const reply = await api.call('GET', '/customers', filter === undefined ? {} : { filter });
  expectStatus(reply, 200);
  const rows = expectBody(reply, customerListSchema, 'an array of customers');
  return { reply, ids: rows.map((c) => c.id), names: rows.map((c) => c.full_name), modified: rows.map((c) => c.modified_dt) };
}

const same = (a: readonly string[], b: readonly string[]) => JSON.stringify(a) === JSON.stringify(b);

/** Listing customers: order, page size, paging, totals and filterJson handling (spec section 7, decision 0001). */
export const listRules: ConformanceRule[] = [
  {
    id: 'customers.list.order',
    title: 'GET /customers without search text lists the most recently modified customers first.',
    async run(ctx) {
      await ctx.pagingSet();
      const touched = await ctx.createCustomer(`${ctx.token}newest`);
      const { reply, ids, modified } = await list(ctx.api);
      check(modified.every((m, i) => i === 0 || (modified[i - 1] as number) >= m), () => `modified_dt should never increase down the list: ${reply.describe()}`);
      check(ids.includes(touched.id), () => `the customer created just now (${touched.id}) should be on the first page: ${reply.describe()}`);
    },
  },
  {
    id: 'customers.list.default-limit',
    title: `A list without a limit answers ${limits.defaultPageSize} rows (the default page size).`,
    async run(ctx) {
      await ctx.pagingSet();
      const everyone = await list(ctx.api);
      check(everyone.ids.length === limits.defaultPageSize, () => `expected ${limits.defaultPageSize} rows: ${everyone.reply.describe()}`);
      const searched = await list(ctx.api, { queryText: ctx.pagingWord });
      check(searched.ids.length === limits.defaultPageSize, () => `expected ${limits.defaultPageSize} of ${pagingSetSize} matches: ${searched.reply.describe()}`);
    },
  },
  {
    id: 'customers.list.total-count',
    title: `List answers carry the number of matching rows in ${totalCountHeader}; the body stays an array.`,
    async run(ctx) {
      await ctx.pagingSet();
      const searched = await list(ctx.api, { queryText: ctx.pagingWord });
      check(expectTotal(searched.reply) === pagingSetSize, () => `expected ${totalCountHeader}: ${pagingSetSize}: ${searched.reply.describe()}`);
      const everyone = await list(ctx.api);
      check(expectTotal(everyone.reply) >= pagingSetSize, () => `expected ${totalCountHeader} to count at least the ${pagingSetSize} customers this run made`);
    },
  },
  {
    id: 'customers.list.limit-offset',
    title: 'limit and offset page through a list without gaps or overlap; an offset past the end answers [].',
    async run(ctx) {
      const set = await ctx.pagingSet();
      const all = await list(ctx.api, { queryText: ctx.pagingWord, limit: pagingSetSize });
      check(all.ids.length === pagingSetSize && set.every((c) => all.ids.includes(c.id)), () => `limit ${pagingSetSize} should answer all ${pagingSetSize} matches: ${all.reply.describe()}`);
      const pages: string[] = [];
      for (const offset of [0, 5, 10]) {
        const page = await list(ctx.api, { queryText: ctx.pagingWord, limit: 5, offset });
        const want = Math.min(5, pagingSetSize - offset);
        check(page.ids.length === want, () => `limit 5 offset ${offset} should answer ${want} rows: ${page.reply.describe()}`);
        pages.push(...page.ids);
      }
      check(same(pages, all.ids), () => `pages of 5 should join up to the full list ${JSON.stringify(all.ids)}, got ${JSON.stringify(pages)}`);
      const past = await list(ctx.api, { queryText: ctx.pagingWord, offset: 50 });
      check(past.ids.length === 0, () => `an offset past the end should answer []: ${past.reply.describe()}`);
    },
  },
  {
    id: 'customers.list.invalid-filter-ignored',
    title: 'A filterJson that is not JSON or fails the shape check is ignored: the answer is the unfiltered list.',
    async run(ctx) {
      await ctx.pagingSet();
      const plain = await list(ctx.api);
      for (const raw of ['{not json', '[]', 'null', '{"limit":"5"}', '{"queryText":5}', '{"offset":true}']) {
        const filtered = await list(ctx.api, raw);
        check(same(filtered.ids, plain.ids), () => `expected the same rows as without filterJson: ${filtered.reply.describe()}`);
      }
    },
  },
  {
    id: 'customers.list.sort',
    title: 'sortBy full_name, created_dt or modified_dt orders a list (sortOrder asc or desc; names ignore case), also the matches of a search, with the same total.',
    async run(ctx) {
      const set = await ctx.pagingSet();
      const read = async (filter: object) => {
        // The default page (no limit): the first ten of the order.
        const result = await list(ctx.api, { queryText: ctx.pagingWord, ...filter });
        check(expectTotal(result.reply) === pagingSetSize, () => `expected ${totalCountHeader}: ${pagingSetSize}: ${result.reply.describe()}`);
        return result;
      };
      const byName = [...set].sort((a, b) => (a.full_name.toLowerCase() < b.full_name.toLowerCase() ? -1 : 1)).map((c) => c.id);
      const cases: [object, string[]][] = [
        [{ sortBy: 'full_name' }, byName],
        [{ sortBy: 'full_name', sortOrder: 'desc' }, [...byName].reverse()],
        [{ sortBy: 'created_dt', sortOrder: 'asc' }, set.map((c) => c.id)],
        [{ sortBy: 'created_dt' }, set.map((c) => c.id).reverse()],
      ];
      for (const [filter, all] of cases) {
        const got = await read(filter);
        const want = all.slice(0, limits.defaultPageSize);
        check(same(got.ids, want), () => `${JSON.stringify(filter)} should answer ${JSON.stringify(want)}: ${got.reply.describe()}`);
      }
      const oldestChanged = await list(ctx.api, { sortBy: 'modified_dt', sortOrder: 'asc' });
      check(oldestChanged.modified.every((m, i) => i === 0 || (oldestChanged.modified[i - 1] as number) <= m), () => `modified_dt should never decrease: ${oldestChanged.reply.describe()}`);
    },
  },
  {
    id: 'customers.list.sort-invalid-ignored',
    title: 'A filterJson with a sortBy or sortOrder the list does not know fails the shape check, so it is ignored like any other.',
    async run(ctx) {
      await ctx.pagingSet();
      const plain = await list(ctx.api);
      for (const filter of [{ sortBy: 'phone' }, { sortBy: 'full_name', sortOrder: 'up' }]) {
        const got = await list(ctx.api, { ...filter, queryText: ctx.pagingWord });
        check(same(got.ids, plain.ids), () => `expected the unfiltered list for ${JSON.stringify(filter)}: ${got.reply.describe()}`);
      }
    },
  },
  {
    id: 'customers.list.invalid-params',
    title: `A filterJson with limit outside 1–${limits.maxPageSize}, a negative or fractional offset, or search text over ${limits.maxQueryTextLength} characters answers 400 INVALID_PARAMS.`,
    async run({ api }) {
      for (const filter of [{ limit: 0 }, { limit: 1.5 }, { limit: limits.maxPageSize + 1 }, { offset: -1 }, { offset: 0.5 }, { queryText: 'x'.repeat(limits.maxQueryTextLength + 1) }]) {
        const reply = await api.call('GET', '/customers', { filter });
        const error = expectError(reply, 400, 'INVALID_PARAMS');
        check((error.issues ?? []).length > 0, () => `expected the issues: ${reply.describe()}`);
      }
    },
  },
];

/** Full-text search (spec section 7, decision 0002). */
export const searchRules: ConformanceRule[] = [
  {
    id: 'customers.search.prefix',
    title: 'Search matches word prefixes of the name, and every word typed must match.',
    async run(ctx) {
      const word = `${ctx.token}pf`;
      const ada = await ctx.createCustomer(word, { full_name: `Ada Lovelace ${word}` });
      const bob = await ctx.createCustomer(word, { full_name: `Bob Ada ${word}` });
      const lovel = await list(ctx.api, { queryText: `lovel ${word.slice(0, -1)}` });
      check(same(lovel.ids, [ada.id]), () => `"lovel ${word.slice(0, -1)}" should find only Ada Lovelace: ${lovel.reply.describe()}`);
      const both = await list(ctx.api, { queryText: `AD ${word}` });
      check(both.ids.length === 2 && [ada.id, bob.id].every((id) => both.ids.includes(id)), () => `"AD ${word}" should find both: ${both.reply.describe()}`);
    },
  },
  {
    id: 'customers.search.fields',
    title: 'Search covers the full name, the email address and the phone number.',
    async run(ctx) {
      const word = `${ctx.token}fd`;
      const c = await ctx.createCustomer(word, { email: `grace.${word}@navy.example`, phone: '+1 555 987 6543' });
      for (const queryText of [`grace.${word}@navy.example`, `${word} 6543`, `kit ${word}`]) {
        const found = await list(ctx.api, { queryText });
        check(same(found.ids, [c.id]), () => `${JSON.stringify(queryText)} should find the customer: ${found.reply.describe()}`);
      }
    },
  },
  {
    id: 'customers.search.diacritics',
    title: 'Search ignores case and diacritics: "zoe" and "ZOË" both find Zoë.',
    async run(ctx) {
      const word = `${ctx.token}dc`;
      const zoe = await ctx.createCustomer(word, { full_name: `Zoë Smith ${word}` });
      for (const q of ['zoe', 'ZOË', 'Zoë', 'smi']) {
        const found = await list(ctx.api, { queryText: `${q} ${word}` });
        check(same(found.ids, [zoe.id]), () => `${JSON.stringify(`${q} ${word}`)} should find Zoë Smith: ${found.reply.describe()}`);
      }
    },
  },
  {
    id: 'customers.search.ranking',
    title: 'Search answers the best matches first, not the most recently modified.',
    async run(ctx) {
      const word = `${ctx.token}rk`;
      const best = await ctx.createCustomer(word, { full_name: `Mira ${word}`, email: `mira.${word}@example.com` });
      await tick();
      const weaker = await ctx.createCustomer(word, { full_name: `Mira Other ${word}`, email: `other.${word}@example.com` });
      const found = await list(ctx.api, { queryText: `mira ${word}` });
      check(same(found.ids, [best.id, weaker.id]), () => `"mira" appears twice in ${best.id} and once in the newer ${weaker.id}, so ${best.id} should come first: ${found.reply.describe()}`);
    },
  },
  {
    id: 'customers.search.hostile',
    title: 'Any text a person can type searches safely: quotes, operators, emoji and SQL answer 200 and never error.',
    async run(ctx) {
      const word = `${ctx.token}hs`;
      const sean = await ctx.createCustomer(word, { full_name: `Seán O'Brien ${word}`, email: `sean.${word}@acme-corp.example` });
      const hostile = ["O'Brien", 'acme-corp', 'AND', 'OR', 'NOT', 'NEAR(a b)', '"', '""', '*', '(', ')', '^', ':', '-', '+', 'a"b*',
        'col:term', '😀', "'; DROP TABLE customers; --", '\\', '%', '_', '{}', '[', '\u0000', '\u202e', 'ß', 'İstanbul', '中文'];
      for (const queryText of hostile) {
        const reply = await ctx.api.call('GET', '/customers', { filter: { queryText } });
        expectStatus(reply, 200, `search text ${JSON.stringify(queryText)}`);
        expectBody(reply, customerListSchema, 'an array of customers');
        expectTotal(reply);
      }
      for (const queryText of [`O'Brien ${word}`, `acme-corp ${word}`, `sean.${word}@acme-corp.example`, `"sean" ${word}*`]) {
        const found = await list(ctx.api, { queryText });
        check(same(found.ids, [sean.id]), () => `${JSON.stringify(queryText)} should find Seán O'Brien: ${found.reply.describe()}`);
      }
      for (const queryText of ['"', '*', '😀', '()']) {
        const none = await list(ctx.api, { queryText });
        check(none.ids.length === 0, () => `text with no word in it should match nothing: ${none.reply.describe()}`);
      }
      const after = await list(ctx.api);
      check(after.ids.length > 0, () => `the customers should still be there: ${after.reply.describe()}`);
    },
  },
  {
    id: 'customers.search.blank',
    title: 'Blank search text lists everyone, newest modified first, like no search text.',
    async run(ctx) {
      await ctx.pagingSet();
      const plain = await list(ctx.api);
      for (const queryText of ['', '   ']) {
        const blank = await list(ctx.api, { queryText });
        check(same(blank.ids, plain.ids), () => `expected the unfiltered list: ${blank.reply.describe()}`);
      }
    },
  },
  {
    id: 'customers.search.after-update',
    title: 'Search finds a customer by the new name after an update, and no longer by the old one.',
    async run(ctx) {
      const word = `${ctx.token}up`;
      const c = await ctx.createCustomer(word, { full_name: `Oldname ${word}` });
      const reply = await ctx.api.call('PUT', `/customers/${c.id}`, { body: { full_name: `Newname ${word}`, email: c.email, phone: c.phone } });
      expectStatus(reply, 200);
      const byNew = await list(ctx.api, { queryText: `newname ${word}` });
      check(same(byNew.ids, [c.id]), () => `the new name should be found: ${byNew.reply.describe()}`);
      const byOld = await list(ctx.api, { queryText: `oldname ${word}` });
      check(byOld.ids.length === 0, () => `the old name should no longer be found: ${byOld.reply.describe()}`);
    },
  },
];
