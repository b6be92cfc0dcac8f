import type { ChangeEvent } from '@otto/api-contract';
import type { QueryKey } from '@tanstack/react-query';
import { customerKeys, invoiceKeys, jobKeys, reportKeys, settingsKeys } from '../query-keys';

/** Past this many changed records of one kind, every cached detail of that kind is refetched instead. */
const maxDetailKeys = 20;

/**
 * The query keys (prefixes) a batch of changes makes stale, each once, following the spec's cache
 * rules: a create invalidates the lists; an update the lists and that record's detail (a customer's
 * detail key covers their notes and service addresses, `customerKeys.notesAndAddresses`: a save of
 * those is a customer update naming them). Jobs also
 * have per-status counts, per-customer lists and the schedule's ranges (under the jobs prefix), and job rows and job
 * details show the customer's name, so a customer update reaches them too. A change without ids
 * (the feed reconnected and may have missed some) invalidates everything of that kind. Every
 * customer, job or invoice change also makes the reports (the Overview) stale.
 * Invoices (decision 0161): a job's status follows its invoice, so an invoice change makes the job
 * lists, counts and details stale; a job change the invoice lists (a job's screen finds its invoice
 * through one); a customer update the invoices (they show the name); a settings change the
 * business's details and the invoice lists.
 * A `database`/`reset` change is not handled here: the whole cache is dropped then.
 * @example
 * changeInvalidations([{ entity: 'customer', kind: 'created', ids: ['7'] }]); // [['reports'], ['customers', 'list']]
 */
export function changeInvalidations(events: readonly ChangeEvent[]): QueryKey[] {
  const keys = new Map<string, QueryKey>();
  const add = (key: QueryKey) => keys.set(JSON.stringify(key), key);
  const details = { customer: new Set<string>(), job: new Set<string>(), invoice: new Set<string>() };
  const everything = { customer: false, job: false, invoice: false };

  for (const { entity, kind, ids } of events) {
    if (entity === 'database') continue;
    if (entity === 'settings') {
      add(settingsKeys.all);
      add(invoiceKeys.lists());
      continue;
    }
    // The Overview's figures count customers, jobs and invoices.
    add(reportKeys.all);
    if (kind === 'deleted' || ids.length === 0) everything[entity] = true;
    if (entity === 'customer') {
      add(customerKeys.lists());
      if (kind !== 'created') {
        ids.forEach((id) => details.customer.add(id));
        add(jobKeys.lists());
        add(jobKeys.schedules());
        add(jobKeys.details());
        add(invoiceKeys.all);
      }
    } else if (entity === 'job') {
      add(jobKeys.lists());
      add(jobKeys.allCounts());
      add(jobKeys.schedules());
      add(invoiceKeys.lists());
      if (kind !== 'created') ids.forEach((id) => details.job.add(id));
    } else {
      add(invoiceKeys.lists());
      add(jobKeys.lists());
      add(jobKeys.allCounts());
      add(jobKeys.details());
      if (kind !== 'created') ids.forEach((id) => details.invoice.add(id));
    }
  }

  if (everything.customer || details.customer.size > maxDetailKeys) add(customerKeys.all);
  else details.customer.forEach((id) => add(customerKeys.detail(id)));
  if (everything.job || details.job.size > maxDetailKeys) add(jobKeys.all);
  else details.job.forEach((id) => add(jobKeys.detail(id)));
  if (everything.invoice || details.invoice.size > maxDetailKeys) add(invoiceKeys.all);
  else details.invoice.forEach((id) => add(invoiceKeys.detail(id)));
  return withoutCovered([...keys.values()]);
}

/** Drops keys that another key in the list already covers as a prefix. */
function withoutCovered(keys: QueryKey[]): QueryKey[] {
  const covers = (prefix: QueryKey, key: QueryKey) =>
    prefix.length < key.length && prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i]));
  return keys.filter((key) => !keys.some((other) => covers(other, key)));
}
