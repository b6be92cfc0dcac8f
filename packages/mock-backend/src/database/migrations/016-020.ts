// Migrations 16 on of the Otto schema: prefix indexes for customer search, the schedule's indexes.
import type { Migration } from '@otto/sqlite-store';

import { customerDetailsTableSql } from '../../customers/customer-details';
import { randomEpochSql, syncLogSql } from '../../sync/sync-log';
import { backfillInvoicesSql, invoiceTablesSql, owedTablesSql } from './invoices-sql';
import { phoneDigitsSql, suffixesOfDigitsSql } from './phone-digit-suffixes-sql';

/**
 * Step 17's indexes, the same SQL on SQLite and PostgreSQL (src/postgres/migrations.ts runs it as
 * its step 17).
 */
export const scheduleIndexesSql = `
      CREATE INDEX jobs_lane_idx ON jobs (assignee, scheduled_start_dt, scheduled_end_dt, status, archived_dt)
        WHERE archived_dt IS NULL AND scheduled_start_dt IS NOT NULL AND status <> 'cancelled';
      CREATE INDEX jobs_unscheduled_idx ON jobs (modified_dt, id)
        WHERE archived_dt IS NULL AND scheduled_start_dt IS NULL AND status IN ('quote', 'scheduled', 'in_progress');
      CREATE INDEX jobs_assignee_idx ON jobs (assignee) WHERE archived_dt IS NULL;
`;

/** Migrations 16 on of the Otto database; migrations.ts composes them in order. */
export const migrations016To020: readonly Migration[] = [
  {
    version: 16,
    name: 'customer search prefix indexes',
    // Issue 38, decision 0152: a prefix search ("ma", "mar", a search box's every keystroke) merged
    // the doclists of every word with that prefix before it could give a first row: at a million
    // customers 23–35 ms for "mar". FTS5 keeps the doclists of all 1-, 2- and 3-character prefixes
    // too (prefix = '1 2 3'), so such a search reads one doclist, newest first, and stops at the
    // page (0.12 ms for "mar" at 100 000 customers instead of 1.6). The index grows by about 60 %
    // (about 15 % of the database). The rows are the same; the table is made again with them.
    up: `
      DROP TABLE customers_fts;
      CREATE VIRTUAL TABLE customers_fts USING fts5(
        customer_id_fk UNINDEXED,
        customer_text,
        phone_digits,
        tokenize = 'unicode61 remove_diacritics 2',
        prefix = '1 2 3'
      );
      WITH p AS MATERIALIZED (SELECT c.id, ${phoneDigitsSql('c.phone')} AS d FROM customers c WHERE c.archived_dt IS NULL)
      INSERT INTO customers_fts (rowid, customer_id_fk, customer_text, phone_digits)
      SELECT c.id, c.id, c.full_name || ' ' || c.email || ' ' || c.phone, ${suffixesOfDigitsSql('p.d')}
      FROM p JOIN customers c ON c.id = p.id ORDER BY c.id;
    `,
  },
  {
    version: 17,
    name: 'schedule indexes',
    // Issue 39, decision 0160: the schedule (GET /jobs/schedule) reads each person's day as a range
    // of one index (person, start; the end, status and archived with it) and counts it there, its
    // "Unscheduled" list and count (filter unscheduled) read a partial index of exactly those jobs,
    // newest modified first, and its lanes (everyone jobs are assigned to) come off an assignee
    // index one name at a time.
    up: scheduleIndexesSql,
  },
  {
    version: 18,
    name: 'invoices and payments',
    // Issue 39, decision 0161: invoices (their lines, numbers, the business's details as issued),
    // the jobs they bill, payments, and the business's settings. Money owed becomes the balances of
    // the open invoices, kept by triggers on invoices per customer, issue day and due day, so the
    // job triggers that summed the prices of invoiced jobs and their two tables go. Every invoiced or paid job gets an invoice matching its
    // price (a paid one, its payment), so nothing owed or paid changes.
    up: `
      DROP TRIGGER owed_after_insert;
      DROP TRIGGER owed_after_delete;
      DROP TRIGGER owed_after_update;
      DROP TABLE customer_owed;
      DROP TABLE owed_total;
      ${invoiceTablesSql('INTEGER PRIMARY KEY', 'INTEGER')}
      ${backfillInvoicesSql('sqlite')};
      ${owedTablesSql('sqlite', 'INTEGER')}
    `,
  },
  {
    version: 19,
    name: 'customer details',
    // Issue 39, decision 0162: a customer's notes and service addresses, in a table of their own
    // beside customers (whose columns and meaning the spec fixes).
    up: customerDetailsTableSql('INTEGER'),
  },
  {
    version: 20,
    name: 'sync log',
    // Issue 40, decision 0163: every committed write's change events at its version stamp, the
    // positions a device pulls from; the data's epoch and the log's horizon.
    up: syncLogSql('INTEGER', randomEpochSql.sqlite),
  },
];
