// Migrations 11 to 15 of the Otto schema: sort indexes, bulk full-text rows, customer count, versions, request ids.
import type { Migration } from '@otto/sqlite-store';

import { phoneDigitSuffixesSql } from './phone-digit-suffixes-sql';

/** Migrations 11 to 15 of the Otto database; migrations.ts composes them in order. */
export const migrations011To015: readonly Migration[] = [
  {
    version: 11,
    name: 'sort indexes',
    // Sortable lists (issue 18, decision 0096): every order a list offers is read off an index,
    // so a page deep in a sorted list of 100 000 rows costs index steps, not a sort of every row.
    // Partial, like the list indexes of migration 6: lists leave archived rows out. Customers by
    // created date use customers_created_dt_idx (migration 7).
    up: `
      CREATE INDEX customers_full_name_idx ON customers (full_name COLLATE NOCASE, id) WHERE archived_dt IS NULL;
      CREATE INDEX jobs_title_idx ON jobs (title COLLATE NOCASE, id) WHERE archived_dt IS NULL;
      CREATE INDEX jobs_price_idx ON jobs (price_cents, id) WHERE archived_dt IS NULL;
      CREATE INDEX jobs_scheduled_idx ON jobs (scheduled_start_dt, id) WHERE archived_dt IS NULL;
      CREATE INDEX jobs_scheduled_first_idx ON jobs ((scheduled_start_dt IS NULL), scheduled_start_dt, id) WHERE archived_dt IS NULL;
      CREATE INDEX jobs_status_order_idx ON jobs ((CASE status WHEN 'quote' THEN 0 WHEN 'scheduled' THEN 1
        WHEN 'in_progress' THEN 2 WHEN 'completed' THEN 3 WHEN 'invoiced' THEN 4 WHEN 'paid' THEN 5
        WHEN 'cancelled' THEN 6 END), modified_dt DESC, id DESC) WHERE archived_dt IS NULL;
    `,
  },
  {
    version: 12,
    name: 'bulk full-text rows',
    // Issue 13: an import of 50 000 customers spent two thirds of its time in the full-text insert
    // trigger, one statement per row. While fts_deferred names customers (only ever inside the
    // import's own transaction) the trigger stands aside, and the import adds the full-text rows of
    // what it inserted in one INSERT … SELECT (customerFtsRowsSql), which FTS5 takes 2.7 times
    // faster. Every other writer still goes through the trigger.
    up: `
      CREATE TABLE fts_deferred (entity TEXT PRIMARY KEY) WITHOUT ROWID;
      DROP TRIGGER customers_fts_after_insert;
      CREATE TRIGGER customers_fts_after_insert AFTER INSERT ON customers
      WHEN new.archived_dt IS NULL AND NOT EXISTS (SELECT 1 FROM fts_deferred WHERE entity = 'customers') BEGIN
        INSERT INTO customers_fts (rowid, customer_id_fk, customer_text, phone_digits)
        VALUES (new.id, new.id, new.full_name || ' ' || new.email || ' ' || new.phone, ${phoneDigitSuffixesSql('new.phone')});
      END;
    `,
  },
  {
    version: 13,
    name: 'customer count',
    // The customer list's X-Total-Count. `count(*) … WHERE archived_dt IS NULL` visits every entry
    // of the partial index (100 000 at 100 000 customers) on every page of the list; a plain
    // `count(*)` before archiving existed counted b-tree cells a page at a time. One row kept by
    // triggers makes it one lookup at any size, like job_counts and owed_total.
    up: `
      CREATE TABLE customer_count (k INTEGER PRIMARY KEY CHECK (k = 1), n INTEGER NOT NULL);
      INSERT INTO customer_count (k, n) SELECT 1, count(*) FROM customers WHERE archived_dt IS NULL;
      CREATE TRIGGER customer_count_after_insert AFTER INSERT ON customers WHEN new.archived_dt IS NULL BEGIN
        UPDATE customer_count SET n = n + 1;
      END;
      CREATE TRIGGER customer_count_after_delete AFTER DELETE ON customers WHEN old.archived_dt IS NULL BEGIN
        UPDATE customer_count SET n = n - 1;
      END;
      CREATE TRIGGER customer_count_after_archive AFTER UPDATE OF archived_dt ON customers
      WHEN (old.archived_dt IS NULL) <> (new.archived_dt IS NULL) BEGIN
        UPDATE customer_count SET n = n + CASE WHEN new.archived_dt IS NULL THEN 1 ELSE -1 END;
      END;
    `,
  },
  {
    version: 14,
    name: 'versions from the database',
    // Issue 34, decision 0120: a record's version (modified_dt, its ETag) is the write's stamp, one
    // more than the last stamp or the writer's clock when later (takeVersionStamp), never a clock
    // alone. The stamp starts above every version there is; the triggers keep it there when dates
    // are written without a stamp (seeding, moving a first-start file's dates). Existing records
    // keep their modified_dt: each is a valid version, and every later write makes a greater one.
    up: `
      CREATE TABLE version_stamp (k INTEGER PRIMARY KEY CHECK (k = 1), last INTEGER NOT NULL);
      INSERT INTO version_stamp (k, last)
      SELECT 1, max(coalesce((SELECT max(modified_dt) FROM customers), 0), coalesce((SELECT max(modified_dt) FROM jobs), 0));
      ${['customers', 'jobs']
        .map(
          (table) => `
      CREATE TRIGGER ${table}_stamp_after_insert AFTER INSERT ON ${table}
      WHEN new.modified_dt > (SELECT last FROM version_stamp WHERE k = 1) BEGIN
        UPDATE version_stamp SET last = new.modified_dt WHERE k = 1;
      END;
      CREATE TRIGGER ${table}_stamp_after_update AFTER UPDATE OF modified_dt ON ${table}
      WHEN new.modified_dt > (SELECT last FROM version_stamp WHERE k = 1) BEGIN
        UPDATE version_stamp SET last = new.modified_dt WHERE k = 1;
      END;`,
        )
        .join('')}
    `,
  },
  {
    version: 15,
    name: 'request ids bound to their request',
    // Issue 34, decision 0121: a request id is kept with the method, the path (with its query) and
    // a SHA-256 of the body of the write it named, and when it was logged; the same id with another
    // request is refused, never answered with this one's answer. Answers are kept by age within a
    // bound (request-log.ts), not the latest 500. The answers kept so far name no request, so they
    // cannot be checked: they go (a write sent again across this upgrade runs again).
    up: `
      DROP TABLE request_log;
      CREATE TABLE request_log (
        seq INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL UNIQUE,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        body_sha256 TEXT NOT NULL,
        logged_dt INTEGER NOT NULL,
        status INTEGER NOT NULL,
        headers TEXT NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX request_log_logged_idx ON request_log (logged_dt);
    `,
  },
];
