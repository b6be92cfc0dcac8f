import { syncPullSchema, syncPushSchema, type SyncPull } from '../sync';
import { check, expectBody, expectError, expectStatus } from './kit-client';
import type { ConformanceRule, RuleContext } from './rule-context';

/** A pull, with every page it has (`next`), as one list of answers. */
async function pullAll(ctx: RuleContext, query: Record<string, unknown>): Promise<SyncPull[]> {
  const pages: SyncPull[] = [];
  let filter: Record<string, unknown> | undefined = query;
  while (filter && pages.length < 1_000) {
    const page: SyncPull = expectBody(await ctx.api.call('GET', '/sync/pull', { filter }), syncPullSchema, 'a pull');
    pages.push(page);
    filter = page.next === null ? undefined : { page: page.next };
  }
  return pages;
}

/** Sync (decision 0163): pull from a position, push in order, each write once. */
export const syncRules: ConformanceRule[] = [
  {
    id: 'sync.pull-push',
    title:
      'A pull names a position; a push runs its writes in order and answers each, a push sent again replays those answers (replayed) and runs nothing; a pull from the position gives the records written since, as they are now; a bad push answers 400.',
    async run(ctx) {
      const word = `${ctx.token}sync`;
      const [first] = await pullAll(ctx, {});
      check(first, 'a pull should answer');
      const writes = [
        { request_id: `kit-${word}-1`, method: 'POST', path: '/customers', body: { full_name: `Kit ${word}`, email: `kit.${word}@example.com`, phone: '555 0901' } },
        { request_id: `kit-${word}-2`, method: 'POST', path: '/customers', body: { full_name: '', email: 'no-name@example.com', phone: '555 0902' } },
      ];
      const pushed = await ctx.api.call('POST', '/sync/push', { body: { writes } });
      expectStatus(pushed, 200);
      const answers = expectBody(pushed, syncPushSchema, 'the push').answers;
      check(answers.length === 2 && answers[0]?.status === 200 && !answers[0].replayed, () => `the first write should run: ${pushed.describe()}`);
      // A refusal is that write's answer, as over HTTP: an empty name is a 400 naming the field.
      const refusal = answers[1]?.body as { code?: unknown } | undefined;
      check(answers[1]?.status === 400 && refusal?.code === 'VALIDATION_FAILED', () => `the second write should be refused, 400 VALIDATION_FAILED: ${pushed.describe()}`);
      const created = answers[0].body as { id?: unknown };
      check(typeof created.id === 'string', () => `the first answer should be the created customer: ${pushed.describe()}`);
      const again = expectBody(await ctx.api.call('POST', '/sync/push', { body: { writes } }), syncPushSchema, 'the push sent again').answers;
      check(again[0]?.replayed === true && JSON.stringify(again[0].body) === JSON.stringify(answers[0].body), () => `a write pushed again should replay its answer: ${JSON.stringify(again)}`);
      const since = await pullAll(ctx, { epoch: first.epoch, since: first.position });
      const named = since.flatMap((p) => p.records.customers).filter((c) => c.full_name === `Kit ${word}`);
      check(named.length === 1 && named[0]?.id === created.id, () => `a pull since the position should give the pushed customer once, got ${JSON.stringify(named)}`);
      const last = since.at(-1);
      check(last && !last.reset && last.position > first.position, () => `the position should move on without a reset: ${JSON.stringify(last && { reset: last.reset, position: last.position })}`);
      const found = await ctx.api.call('GET', '/customers', { filter: { queryText: word } });
      check(found.headers.get('x-total-count') === '1', () => `the write pushed twice should have run once: ${found.describe()}`);
      expectError(await ctx.api.call('POST', '/sync/push', { body: { writes: [] } }), 400, 'VALIDATION_FAILED');
      expectError(await ctx.api.call('GET', '/sync/pull', { filter: { page: 'not a page' } }), 400, 'INVALID_PARAMS');
    },
  },
];
