import { z } from 'zod';
import { customerSchema } from '../customer';
import { importResultSchema, importUndoResultSchema, lastImportSchema } from '../import';
import { jobSchema } from '../job';
import { limits } from '../limits';
import { check, expectBody, expectError, expectStatus } from './kit-client';
import type { ConformanceRule, RuleContext } from './rule-context';

const customers = z.array(customerSchema);

async function search(ctx: RuleContext, word: string) {
  const reply = await ctx.api.call('GET', '/customers', { filter: { queryText: word, limit: 100 } });
  expectStatus(reply, 200);
  return expectBody(reply, customers, 'a list of customers');
}

async function undoLast(ctx: RuleContext, importId: string | null) {
  const last = await ctx.api.call('GET', '/imports/last');
  expectStatus(last, 200);
  const named = expectBody(last, lastImportSchema, 'the last import or null');
  check(named?.id === importId, () => `GET /imports/last should name the import just made (${importId}): ${last.describe()}`);
  const reply = await ctx.api.call('POST', '/imports/last/undo');
  expectStatus(reply, 200);
  return expectBody(reply, importUndoResultSchema, 'what the undo did');
}

/** CSV import (issue 13, decision 0060): one transaction, per-row issues, duplicates, undo. */
export const importRules: ConformanceRule[] = [
  {
    id: 'imports.customers',
    title:
      'POST /customers/import adds the valid rows, names each problem row by index, keeps text as text; dryRun changes nothing; POST /imports/last/undo removes exactly what it added.',
    async run(ctx) {
      const word = `${ctx.token}imp`;
      const rows = [
        { full_name: ` Zoë ${word} `, email: `zoe.${word}@example.com`, phone: '+46 70 123' },
        { full_name: `=HYPERLINK("http://example.com","${word}")`, email: `f.${word}@example.com`, phone: '555' },
        { full_name: `No email ${word}`, email: 'not-an-email', phone: '555' },
      ];
      const dry = await ctx.api.call('POST', '/customers/import', { body: { rows, dryRun: true } });
      expectStatus(dry, 200);
      const planned = expectBody(dry, importResultSchema, 'an import result');
      check(planned.dryRun && planned.importId === null && planned.created === 2 && planned.skipped === 1, () => `a dry run should plan 2 created, 1 skipped: ${dry.describe()}`);
      check((await search(ctx, word)).length === 0, 'a dry run should store nothing');

      const reply = await ctx.api.call('POST', '/customers/import', { body: { rows } });
      expectStatus(reply, 200);
      const done = expectBody(reply, importResultSchema, 'an import result');
      check(done.created === 2 && done.updated === 0 && done.skipped === 1 && typeof done.importId === 'string', () => `expected 2 created, 1 skipped: ${reply.describe()}`);
      check(done.issues.length === 1 && done.issues[0]?.index === 2 && done.issues[0]?.path === 'email', () => `row 2's email should be the one issue: ${reply.describe()}`);
      const stored = await search(ctx, word);
      const names = stored.map((c) => c.full_name).sort();
      check(JSON.stringify(names) === JSON.stringify([rows[1]?.full_name, `Zoë ${word}`].sort()), () => `stored names should be the cells as text, trimmed: ${JSON.stringify(names)}`);

      const undo = await undoLast(ctx, done.importId);
      check(undo.removed === 2 && undo.restored === 0, () => `the undo should remove the 2 added customers: ${JSON.stringify(undo)}`);
      check((await search(ctx, word)).length === 0, 'after the undo the imported customers should be gone');
      expectError(await ctx.api.call('POST', '/imports/last/undo'), 404, 'NOT_FOUND');
    },
  },
  {
    id: 'imports.customers.duplicates',
    title:
      'A row with the email of an existing customer (any case) is a duplicate: skipped, written over the customer (update), or created anyway, as `duplicates` says; the undo puts the customer back.',
    async run(ctx) {
      const word = `${ctx.token}dup`;
      const existing = await ctx.createCustomer(word);
      const rows = [{ full_name: `Renamed ${word}`, email: existing.email.toUpperCase(), phone: '555 0199' }];
      const skip = expectBody(await ctx.api.call('POST', '/customers/import', { body: { rows, duplicates: 'skip' } }), importResultSchema, 'an import result');
      check(skip.skipped === 1 && skip.created === 0 && skip.duplicates[0]?.existingId === existing.id && skip.duplicates[0]?.action === 'skipped',
        () => `the row should be skipped as a duplicate of ${existing.id}: ${JSON.stringify(skip)}`);
      const reply = await ctx.api.call('POST', '/customers/import', { body: { rows, duplicates: 'update' } });
      const update = expectBody(reply, importResultSchema, 'an import result');
      check(update.updated === 1 && update.created === 0, () => `the customer should be updated: ${reply.describe()}`);
      const after = expectBody(await ctx.api.call('GET', `/customers/${existing.id}`), customerSchema, 'a customer');
      check(after.full_name === `Renamed ${word}` && after.phone === '555 0199', () => `the customer should carry the row's values: ${JSON.stringify(after)}`);
      const undo = await undoLast(ctx, update.importId);
      check(undo.restored === 1 && undo.removed === 0, () => `the undo should put 1 customer back: ${JSON.stringify(undo)}`);
      const back = expectBody(await ctx.api.call('GET', `/customers/${existing.id}`), customerSchema, 'a customer');
      check(JSON.stringify(back) === JSON.stringify(existing), () => `the customer should be as before the import: ${JSON.stringify(back)}`);
    },
  },
  {
    id: 'imports.jobs',
    title: 'POST /jobs/import finds each customer by email, else exact name; a row finding none is an issue; the undo removes the jobs.',
    async run(ctx) {
      const word = `${ctx.token}ijob`;
      const customer = await ctx.createCustomer(word);
      const rows = [
        { title: `Boiler ${word}`, customer_email: customer.email, status: 'quote', price_cents: 12500 },
        { title: `Fence ${word}`, customer_name: customer.full_name },
        { title: `Roof ${word}`, customer_name: `Nobody ${word}` },
      ];
      const reply = await ctx.api.call('POST', '/jobs/import', { body: { rows } });
      expectStatus(reply, 200);
      const done = expectBody(reply, importResultSchema, 'an import result');
      check(done.entity === 'job' && done.created === 2 && done.skipped === 1 && done.issues[0]?.index === 2, () => `expected 2 jobs and row 2 as an issue: ${reply.describe()}`);
      const list = await ctx.api.call('GET', '/jobs', { filter: { customerId: customer.id } });
      const jobs = expectBody(list, z.array(jobSchema), 'a list of jobs');
      check(jobs.length === 2 && jobs.some((j) => j.title === `Boiler ${word}` && j.price_cents === 12500), () => `the customer should have the 2 jobs: ${list.describe()}`);
      const undo = await undoLast(ctx, done.importId);
      check(undo.removed === 2, () => `the undo should remove the 2 jobs: ${JSON.stringify(undo)}`);
      const after = expectBody(await ctx.api.call('GET', '/jobs', { filter: { customerId: customer.id } }), z.array(jobSchema), 'a list of jobs');
      check(after.length === 0, 'after the undo the customer should have no jobs');
    },
  },
  {
    id: 'imports.limits',
    title: `An import of no rows, of more than ${limits.maxImportRows} rows, or not a list of rows, answers 400 VALIDATION_FAILED and changes nothing.`,
    async run(ctx) {
      const word = `${ctx.token}lim`;
      const row = { full_name: `Limit ${word}`, email: `l.${word}@example.com`, phone: '1' };
      for (const body of [{ rows: [] }, { rows: row }, { rows: [row], duplicates: 'merge' }]) {
        expectError(await ctx.api.call('POST', '/customers/import', { body }), 400, 'VALIDATION_FAILED');
        expectError(await ctx.api.call('POST', '/jobs/import', { body }), 400, 'VALIDATION_FAILED');
      }
      const short = { full_name: word, email: 'e', phone: '1' };
      const tooMany = { rows: Array.from({ length: limits.maxImportRows + 1 }, () => short) };
      expectError(await ctx.api.call('POST', '/customers/import', { body: tooMany }), 400, 'VALIDATION_FAILED');
      check((await search(ctx, word)).length === 0, 'nothing should be stored');
    },
  },
];
