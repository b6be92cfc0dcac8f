// A pull (issue 40, decision 0163): the records changed after a position, from the change log, or
// everything, in pages, for a device that has nothing (or an out-of-date copy).
import { syncLimits, type SyncPull, type SyncPullQuery, type SyncRecords } from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import { ApiError } from '../runtime/api-error';
import { latestSchemaVersion } from '../database/migrations';
import { customerColumns, toCustomer, type CustomerRow } from '../customers/customer-rows';
import { jobColumns, toJob, type JobRow } from '../jobs/job-rows';
import { invoiceColumns, readSettings, toInvoices, type InvoiceRow } from '../invoices/invoice-repository';

/** The kinds a first sync goes through, one after another, each in id order. */
const stages = ['customers', 'jobs', 'invoices', 'settings'] as const;
type Stage = (typeof stages)[number];

/** Where a paged pull goes on: a first sync's stage and last id, or the log after a position. */
type Page = { mode: 'snapshot'; epoch: string; position: number; stage: number; after: number } | { mode: 'log'; epoch: string; since: number };

const pageToken = /^(s)\.([0-9a-f]{1,64})\.(\d{1,16})\.(\d)\.(\d{1,16})$|^(l)\.([0-9a-f]{1,64})\.(\d{1,16})$/;

function readPage(token: string): Page {
  const m = pageToken.exec(token);
  if (!m) throw new ApiError(400, 'INVALID_PARAMS', 'page is not one this server gave: pull again without it.');
  if (m[1] === 's') return { mode: 'snapshot', epoch: m[2] as string, position: Number(m[3]), stage: Number(m[4]), after: Number(m[5]) };
  return { mode: 'log', epoch: m[7] as string, since: Number(m[8]) };
}

const emptyRecords = (): SyncRecords => ({ customers: [], customer_details: [], jobs: [], invoices: [], settings: [] });

/**
 * Answers a pull, in the read's one consistent snapshot. A device with a position the log still
 * covers, under the same epoch, gets what changed after it; any other gets everything, a page at a
 * time, as of the position the first page names (what changes meanwhile comes with its next pull).
 * @example
 * const pulled = await pullChanges(db, { epoch, since });
 */
export async function pullChanges(db: SqlClient, query: SyncPullQuery): Promise<SyncPull> {
  const state = await db.get<{ epoch: string; horizon: number }>('SELECT epoch, horizon FROM sync_state WHERE k = 1');
  if (!state) throw new Error('The sync_state row is missing (migration 20 was not applied?).');
  const epoch = state.epoch;
  const now = Number((await db.get<{ last: number }>('SELECT last FROM version_stamp WHERE k = 1'))?.last ?? 0);
  const page = query.page === undefined ? undefined : readPage(query.page);
  if (page?.mode === 'snapshot' && page.epoch === epoch) return snapshotPage(db, epoch, page.position, page.stage, page.after, false);
  const since = page?.mode === 'log' ? page.since : query.since;
  const sameData = (page?.epoch ?? query.epoch) === epoch;
  if (since === undefined || !sameData || since < Number(state.horizon) || since > now) return snapshotPage(db, epoch, now, 0, 0, true);
  return logPage(db, epoch, since, now);
}

async function logPage(db: SqlClient, epoch: string, since: number, now: number): Promise<SyncPull> {
  const wanted = { customer: new Set<number>(), job: new Set<number>(), invoice: new Set<number>(), settings: false };
  let count = 0;
  let position = now;
  let more = false;
  // Whole writes only, the next 200 at a time: a write's events are all in one answer.
  let from = since;
  read: for (;;) {
    const entries = await db.all<{ pos: number; entity: string; ids: string }>(
      `SELECT pos, entity, ids FROM sync_log
       WHERE pos > ? AND pos <= (SELECT max(pos) FROM (SELECT DISTINCT pos FROM sync_log WHERE pos > ? ORDER BY pos LIMIT 200) w)
       ORDER BY pos, n`,
      [from, from],
    );
    if (entries.length === 0) break;
    for (let i = 0; i < entries.length; ) {
      const pos = Number(entries[i]!.pos);
      const write: { entity: string; ids: string[] }[] = [];
      for (; i < entries.length && Number(entries[i]!.pos) === pos; i++) write.push({ entity: entries[i]!.entity, ids: JSON.parse(entries[i]!.ids) as string[] });
      const ids = write.reduce((sum, e) => sum + Math.max(1, e.ids.length), 0);
      if (count > 0 && count + ids > syncLimits.maxPullRecords) {
        position = from;
        more = true;
        break read;
      }
      for (const entry of write) {
        if (entry.entity === 'settings') wanted.settings = true;
        else if (entry.entity === 'customer' || entry.entity === 'job' || entry.entity === 'invoice') for (const id of entry.ids) wanted[entry.entity].add(Number(id));
      }
      count += ids;
      from = pos;
    }
  }
  const records = emptyRecords();
  const customerIds = [...wanted.customer].filter(Number.isSafeInteger);
  const jobIds = [...wanted.job].filter(Number.isSafeInteger);
  const invoiceIds = [...wanted.invoice].filter(Number.isSafeInteger);
  const ids = db.dialect.jsonIntegers;
  records.customers = (await db.all<CustomerRow>(`SELECT ${customerColumns} FROM customers c WHERE c.id IN (${ids}) ORDER BY c.id`, [JSON.stringify(customerIds)])).map(toCustomer);
  records.customer_details = await detailsOf(db, `customer_id IN (${ids})`, [JSON.stringify(customerIds)]);
  records.jobs = (await db.all<JobRow>(`SELECT ${jobColumns} FROM jobs j JOIN customers c ON c.id = j.customer_id WHERE j.id IN (${ids}) ORDER BY j.id`, [JSON.stringify(jobIds)])).map(toJob);
  records.invoices = await toInvoices(db, await db.all<InvoiceRow>(`SELECT ${invoiceColumns} FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.id IN (${ids}) ORDER BY i.id`, [JSON.stringify(invoiceIds)]));
  if (wanted.settings) records.settings = [await readSettings(db)];
  const gone = (asked: number[], found: { id: string }[]) => {
    const present = new Set(found.map((r) => r.id));
    return asked.map(String).filter((id) => !present.has(id));
  };
  return {
    epoch,
    position,
    reset: false,
    records,
    deleted: { customers: gone(customerIds, records.customers), jobs: gone(jobIds, records.jobs), invoices: gone(invoiceIds, records.invoices) },
    next: more ? `l.${epoch}.${position}` : null,
    schema: latestSchemaVersion,
  };
}

async function snapshotPage(db: SqlClient, epoch: string, position: number, stageIndex: number, after: number, reset: boolean): Promise<SyncPull> {
  const records = emptyRecords();
  const stage: Stage | undefined = stages[stageIndex];
  const limit = syncLimits.maxSnapshotRecords;
  let last: number | undefined;
  if (stage === 'customers') {
    records.customers = (await db.all<CustomerRow>(`SELECT ${customerColumns} FROM customers c WHERE c.id > ? ORDER BY c.id LIMIT ?`, [after, limit])).map(toCustomer);
    const lastId = records.customers.at(-1)?.id;
    if (lastId !== undefined) records.customer_details = await detailsOf(db, 'customer_id > ? AND customer_id <= ?', [after, Number(lastId)]);
    last = lastId === undefined ? undefined : Number(lastId);
  } else if (stage === 'jobs') {
    records.jobs = (await db.all<JobRow>(`SELECT ${jobColumns} FROM jobs j JOIN customers c ON c.id = j.customer_id WHERE j.id > ? ORDER BY j.id LIMIT ?`, [after, limit])).map(toJob);
    last = records.jobs.length ? Number(records.jobs.at(-1)!.id) : undefined;
  } else if (stage === 'invoices') {
    records.invoices = await toInvoices(db, await db.all<InvoiceRow>(`SELECT ${invoiceColumns} FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.id > ? ORDER BY i.id LIMIT ?`, [after, limit]));
    last = records.invoices.length ? Number(records.invoices.at(-1)!.id) : undefined;
  } else if (stage === 'settings') {
    records.settings = [await readSettings(db)];
  }
  // A full page: this stage may go on. Otherwise the next stage, or the end.
  const full = last !== undefined && (stage === 'invoices' ? records.invoices.length : stage === 'jobs' ? records.jobs.length : records.customers.length) === limit;
  const next = full ? `s.${epoch}.${position}.${stageIndex}.${last}` : stageIndex + 1 < stages.length ? `s.${epoch}.${position}.${stageIndex + 1}.0` : null;
  return { epoch, position, reset, records, deleted: { customers: [], jobs: [], invoices: [] }, next, schema: latestSchemaVersion };
}

async function detailsOf(db: SqlClient, where: string, params: (string | number)[]): Promise<SyncRecords['customer_details']> {
  const rows = await db.all<{ customer_id: number; notes: string; addresses_json: string; modified_dt: number }>(
    `SELECT customer_id, notes, addresses_json, modified_dt FROM customer_details WHERE ${where} ORDER BY customer_id`,
    params,
  );
  return rows.map((row) => ({
    customer_id: String(row.customer_id),
    notes: row.notes,
    addresses: JSON.parse(row.addresses_json) as SyncRecords['customer_details'][number]['addresses'],
    modified_dt: Number(row.modified_dt),
  }));
}
