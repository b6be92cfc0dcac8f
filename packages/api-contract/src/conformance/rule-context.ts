import { customerSchema, type Customer } from '../customer';
import { jobSchema, type Job } from '../job';
import { expectBody, expectStatus, RuleFailure, type KitClient } from './kit-client';

/**
 * One rule of the kit: a requirement of the contract and the requests that check it. Rules of your
 * own (`runConformance({ rules })`, `otto-contract-test --rules <module>`) have the same shape:
 * `run` calls the API through `ctx.api` and fails with `check` (or any thrown error).
 * @example
 * const notesListed: ConformanceRule = {
 *   id: 'notes.create-and-list',
 *   title: 'A created note is listed first',
 *   async run({ api, token }) {
 *     const created = await api.call('POST', '/notes', { body: { text: `note ${token}` } });
 *     check(created.status === 200, () => `creating a note: ${created.describe()}`);
 *     const list = await api.call('GET', '/notes');
 *     check((list.json as { text: string }[])[0]?.text === `note ${token}`, () => `the list: ${list.describe()}`);
 *   },
 * };
 */
export interface ConformanceRule {
  id: string;
  title: string;
  run(ctx: RuleContext): Promise<void>;
}

/**
 * What a rule works with: a client for the API and the data this run created.
 * @example
 * async function run({ api, token }: RuleContext) { await api.call('GET', '/customers', { filter: { queryText: token } }); }
 */
export interface RuleContext {
  api: KitClient;
  /**
   * A word unique to this run ("k3x9…"), put in every name and email the kit creates so that a
   * search for it finds only this run's data, whatever else the backend holds.
   */
  token: string;
  /** Creates a customer whose name, email and phone carry `word`; fails the rule otherwise. */
  createCustomer(word: string, fields?: Partial<Pick<Customer, 'full_name' | 'email' | 'phone'>>): Promise<Customer>;
  /** Creates a job for `customerId`; fails the rule otherwise. */
  createJob(customerId: string, fields?: Record<string, unknown>): Promise<Job>;
  /** The twelve customers of the paging set (created once, in order), all carrying `pagingWord`. */
  pagingSet(): Promise<Customer[]>;
  readonly pagingWord: string;
}

/** The number of customers in the paging set: more than one default page. */
export const pagingSetSize = 12;

export function createRuleContext(api: KitClient): RuleContext {
  const token = `k${Math.random().toString(36).slice(2, 10).padEnd(8, '0')}${Date.now().toString(36).slice(-4)}`;
  const pagingWord = `${token}pg`;
  let serial = 0;
  let paging: Promise<Customer[]> | undefined;

  const ctx: RuleContext = {
    api,
    token,
    pagingWord,
    async createCustomer(word, fields = {}) {
      serial++;
      const sent = {
        full_name: `Kit ${word}`,
        email: `kit${serial}.${word}@example.com`,
        phone: `555 ${String(1000 + serial)}`,
        ...fields,
      };
      const reply = await api.call('POST', '/customers', { body: sent });
      expectStatus(reply, 200, 'creating a customer for this rule');
      return expectBody(reply, customerSchema, 'the created customer');
    },
    async createJob(customerId, fields = {}) {
      const reply = await api.call('POST', '/jobs', { body: { customer_id: customerId, title: `Kit job ${token}`, ...fields } });
      expectStatus(reply, 200, 'creating a job for this rule');
      return expectBody(reply, jobSchema, 'the created job');
    },
    pagingSet() {
      paging ??= (async () => {
        const created: Customer[] = [];
        for (let i = 0; i < pagingSetSize; i++) {
          created.push(await ctx.createCustomer(pagingWord, { full_name: `Kit Pager ${i + 1} ${pagingWord}` }));
        }
        return created;
      })();
      return paging.catch((error: unknown) => {
        throw new RuleFailure(`could not create the paging set of ${pagingSetSize} customers: ${(error as Error).message}`);
      });
    },
  };
  return ctx;
}
