// Migrations 6 to 10 of the Otto schema: phone digits and archive, report day totals, money owed, request log.
import type { Migration } from '@otto/sqlite-store';

import { phoneDigitSuffixesSql } from './phone-digit-suffixes-sql';

/** Migrations 6 to 10 of the Otto database; migrations.ts composes them in order. */
export const migrations006To010: readonly Migration[] = [
  {
    version: 6,
    name: 'phone digits, archive, job moves',
    // Decisions 0090–0092. customers_fts gains phone_digits: every suffix of at least four digits of
    // the phone's digits (+1 (836) 489-5133 → 18364895133 8364895133 … 5133), so a prefix search
    // on it finds any run of four or more digits, whatever punctuation was typed. customer_text is
    // unchanged (the spec's full_name, email and phone joined by spaces). Pure SQL (no function of
    // the application), so any writer, a restored backup or the sqlite3 shell keeps it right.
    // Archived customers and jobs leave the full-text indexes and the job counters, so lists,
    // searches and counts skip them with no extra work; the list indexes become partial.
    up: `
      ALTER TABLE customers ADD COLUMN archived_dt INTEGER;
      ALTER TABLE jobs ADD COLUMN archived_dt INTEGER;

      DROP TRIGGER customers_fts_after_insert;
      DROP TRIGGER customers_fts_after_update;
      DROP TABLE customers_fts;
      CREATE VIRTUAL TABLE customers_fts USING fts5(
        customer_id_fk UNINDEXED,
        customer_text,
        phone_digits,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO customers_fts (rowid, customer_id_fk, customer_text, phone_digits)
      SELECT c.id, c.id, c.full_name || ' ' || c.email || ' ' || c.phone, ${phoneDigitSuffixesSql('c.phone')}
      FROM customers c WHERE c.archived_dt IS NULL;
      CREATE TRIGGER customers_fts_after_insert AFTER INSERT ON customers WHEN new.archived_dt IS NULL BEGIN
        INSERT INTO customers_fts (rowid, customer_id_fk, customer_text, phone_digits)
        VALUES (new.id, new.id, new.full_name || ' ' || new.email || ' ' || new.phone, ${phoneDigitSuffixesSql('new.phone')});
      END;
      CREATE TRIGGER customers_fts_after_update AFTER UPDATE OF full_name, email, phone, archived_dt ON customers BEGIN
        DELETE FROM customers_fts WHERE rowid = old.id;
        INSERT INTO customers_fts (rowid, customer_id_fk, customer_text, phone_digits)
        SELECT new.id, new.id, new.full_name || ' ' || new.email || ' ' || new.phone, ${phoneDigitSuffixesSql('new.phone')}
        WHERE new.archived_dt IS NULL;
      END;
      CREATE TRIGGER customers_fts_after_delete AFTER DELETE ON customers BEGIN
        DELETE FROM customers_fts WHERE rowid = old.id;
      END;
      DROP INDEX customers_modified_dt_idx;
      CREATE INDEX customers_modified_dt_idx ON customers (modified_dt DESC, id DESC) WHERE archived_dt IS NULL;
      CREATE INDEX customers_archived_idx ON customers (archived_dt DESC, id DESC) WHERE archived_dt IS NOT NULL;
      CREATE INDEX customers_email_idx ON customers (lower(email)) WHERE archived_dt IS NULL;

      -- Jobs: an archived job is out of the counters and both full-text indexes.
      DROP TRIGGER job_counts_after_delete;
      CREATE TRIGGER job_counts_after_delete AFTER DELETE ON jobs WHEN old.archived_dt IS NULL BEGIN
        UPDATE job_counts SET n = n - 1 WHERE status = old.status;
      END;
      DROP TRIGGER job_counts_after_status;
      CREATE TRIGGER job_counts_after_status AFTER UPDATE OF status ON jobs
      WHEN new.status IS NOT old.status AND old.archived_dt IS NULL AND new.archived_dt IS NULL BEGIN
        UPDATE job_counts SET n = n - 1 WHERE status = old.status;
        UPDATE job_counts SET n = n + 1 WHERE status = new.status;
      END;
      DROP TRIGGER jobs_status_fts_after_update;
      CREATE TRIGGER jobs_status_fts_after_update AFTER UPDATE OF title, description, service_address, customer_id, status ON jobs
      WHEN old.archived_dt IS NULL AND new.archived_dt IS NULL AND (new.status IS NOT old.status OR new.title IS NOT old.title
        OR new.description IS NOT old.description OR new.service_address IS NOT old.service_address
        OR new.customer_id IS NOT old.customer_id) BEGIN
        DELETE FROM jobs_status_fts WHERE rowid = ((SELECT k FROM job_counts WHERE status = old.status) << 40) | old.id;
        INSERT INTO jobs_status_fts (rowid, job_text)
        VALUES (((SELECT k FROM job_counts WHERE status = new.status) << 40) | new.id,
          new.title || ' ' || new.description || ' ' || new.service_address || ' ' ||
          coalesce((SELECT full_name FROM customers WHERE id = new.customer_id), ''));
      END;
      DROP TRIGGER jobs_status_fts_after_delete;
      CREATE TRIGGER jobs_status_fts_after_delete AFTER DELETE ON jobs WHEN old.archived_dt IS NULL BEGIN
        DELETE FROM jobs_status_fts WHERE rowid = ((SELECT k FROM job_counts WHERE status = old.status) << 40) | old.id;
      END;
      CREATE TRIGGER jobs_fts_after_delete AFTER DELETE ON jobs BEGIN
        DELETE FROM jobs_fts WHERE rowid = old.id;
      END;
      DROP TRIGGER jobs_status_fts_after_customer_rename;
      CREATE TRIGGER jobs_status_fts_after_customer_rename AFTER UPDATE OF full_name ON customers
      WHEN new.full_name IS NOT old.full_name BEGIN
        DELETE FROM jobs_status_fts WHERE rowid IN (
          SELECT ((SELECT k FROM job_counts WHERE status = j.status) << 40) | j.id FROM jobs j
          WHERE j.customer_id = new.id AND j.archived_dt IS NULL);
        INSERT INTO jobs_status_fts (rowid, job_text)
        SELECT ((SELECT k FROM job_counts WHERE status = j.status) << 40) | j.id,
          j.title || ' ' || j.description || ' ' || j.service_address || ' ' || new.full_name
        FROM jobs j WHERE j.customer_id = new.id AND j.archived_dt IS NULL;
      END;
      CREATE TRIGGER jobs_after_archive AFTER UPDATE OF archived_dt ON jobs
      WHEN old.archived_dt IS NULL AND new.archived_dt IS NOT NULL BEGIN
        UPDATE job_counts SET n = n - 1 WHERE status = old.status;
        DELETE FROM jobs_fts WHERE rowid = old.id;
        DELETE FROM jobs_status_fts WHERE rowid = ((SELECT k FROM job_counts WHERE status = old.status) << 40) | old.id;
      END;
      CREATE TRIGGER jobs_after_restore AFTER UPDATE OF archived_dt ON jobs
      WHEN old.archived_dt IS NOT NULL AND new.archived_dt IS NULL BEGIN
        UPDATE job_counts SET n = n + 1 WHERE status = new.status;
        INSERT INTO jobs_fts (rowid, job_text)
        VALUES (new.id, new.title || ' ' || new.description || ' ' || new.service_address || ' ' ||
          coalesce((SELECT full_name FROM customers WHERE id = new.customer_id), ''));
        INSERT INTO jobs_status_fts (rowid, job_text)
        VALUES (((SELECT k FROM job_counts WHERE status = new.status) << 40) | new.id,
          new.title || ' ' || new.description || ' ' || new.service_address || ' ' ||
          coalesce((SELECT full_name FROM customers WHERE id = new.customer_id), ''));
      END;
      DROP INDEX jobs_modified_dt_idx;
      CREATE INDEX jobs_modified_dt_idx ON jobs (modified_dt DESC, id DESC) WHERE archived_dt IS NULL;
      DROP INDEX jobs_status_idx;
      CREATE INDEX jobs_status_idx ON jobs (status, modified_dt DESC, id DESC) WHERE archived_dt IS NULL;
      CREATE INDEX jobs_archived_idx ON jobs (archived_dt DESC, id DESC) WHERE archived_dt IS NOT NULL;

      -- The last one-click status move of each job, so that exactly that move can be undone
      -- (POST /jobs/{id}/revert, decision 0092).
      CREATE TABLE job_moves (
        job_id INTEGER PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
        from_status TEXT NOT NULL,
        to_status TEXT NOT NULL,
        moved_dt INTEGER NOT NULL,
        version INTEGER NOT NULL,
        previous_status_dt INTEGER,
        previous_start_dt INTEGER,
        previous_end_dt INTEGER
      );
    `,
  },
  {
    version: 7,
    name: 'report indexes skip archived records',
    // Archived jobs and customers are out of every list and count (migration 6), so out of the
    // summary report too (decision 0080); its partial indexes leave them out as well, so the
    // figures still read nothing but index entries.
    up: `
      DROP INDEX jobs_paid_idx;
      CREATE INDEX jobs_paid_idx ON jobs (paid_dt, status, price_cents) WHERE paid_dt IS NOT NULL AND archived_dt IS NULL;
      DROP INDEX jobs_owed_idx;
      CREATE INDEX jobs_owed_idx ON jobs (customer_id, price_cents) WHERE status = 'invoiced' AND archived_dt IS NULL;
      DROP INDEX jobs_week_idx;
      CREATE INDEX jobs_week_idx ON jobs (scheduled_start_dt) WHERE status IN ('scheduled', 'in_progress') AND archived_dt IS NULL;
      DROP INDEX customers_created_dt_idx;
      CREATE INDEX customers_created_dt_idx ON customers (created_dt) WHERE archived_dt IS NULL;
    `,
  },
  {
    version: 8,
    name: 'report day totals',
    // Paid money and new customers per UTC day, kept by triggers in the same transaction as the
    // write (decision 0080). A month of any time zone is then its whole UTC days from these
    // tables plus its two partial days from the indexes of migration 7: a few hundred rows read
    // instead of every paid job of two years.
    up: `
      CREATE TABLE paid_days (day INTEGER PRIMARY KEY, cents INTEGER NOT NULL, n INTEGER NOT NULL);
      INSERT INTO paid_days (day, cents, n)
      SELECT paid_dt / 86400000, sum(price_cents), count(*) FROM jobs
      WHERE status = 'paid' AND paid_dt IS NOT NULL AND archived_dt IS NULL GROUP BY 1;
      CREATE TRIGGER paid_days_after_insert AFTER INSERT ON jobs WHEN new.status = 'paid' AND new.paid_dt IS NOT NULL AND new.archived_dt IS NULL BEGIN
        INSERT OR IGNORE INTO paid_days (day, cents, n) VALUES (new.paid_dt / 86400000, 0, 0);
        UPDATE paid_days SET cents = cents + new.price_cents, n = n + 1 WHERE day = new.paid_dt / 86400000;
      END;
      CREATE TRIGGER paid_days_after_delete AFTER DELETE ON jobs WHEN old.status = 'paid' AND old.paid_dt IS NOT NULL AND old.archived_dt IS NULL BEGIN
        UPDATE paid_days SET cents = cents - old.price_cents, n = n - 1 WHERE day = old.paid_dt / 86400000;
      END;
      CREATE TRIGGER paid_days_after_update AFTER UPDATE OF status, paid_dt, price_cents, archived_dt ON jobs
      WHEN (old.status = 'paid' AND old.paid_dt IS NOT NULL AND old.archived_dt IS NULL) OR (new.status = 'paid' AND new.paid_dt IS NOT NULL AND new.archived_dt IS NULL) BEGIN
        UPDATE paid_days SET cents = cents - old.price_cents, n = n - 1
        WHERE day = old.paid_dt / 86400000 AND old.status = 'paid' AND old.paid_dt IS NOT NULL AND old.archived_dt IS NULL;
        INSERT OR IGNORE INTO paid_days (day, cents, n) SELECT new.paid_dt / 86400000, 0, 0 WHERE new.status = 'paid' AND new.paid_dt IS NOT NULL AND new.archived_dt IS NULL;
        UPDATE paid_days SET cents = cents + new.price_cents, n = n + 1
        WHERE day = new.paid_dt / 86400000 AND new.status = 'paid' AND new.paid_dt IS NOT NULL AND new.archived_dt IS NULL;
      END;

      CREATE TABLE customer_days (day INTEGER PRIMARY KEY, n INTEGER NOT NULL);
      INSERT INTO customer_days (day, n)
      SELECT created_dt / 86400000, count(*) FROM customers WHERE archived_dt IS NULL GROUP BY 1;
      CREATE TRIGGER customer_days_after_insert AFTER INSERT ON customers WHEN new.archived_dt IS NULL BEGIN
        INSERT OR IGNORE INTO customer_days (day, n) VALUES (new.created_dt / 86400000, 0);
        UPDATE customer_days SET n = n + 1 WHERE day = new.created_dt / 86400000;
      END;
      CREATE TRIGGER customer_days_after_delete AFTER DELETE ON customers WHEN old.archived_dt IS NULL BEGIN
        UPDATE customer_days SET n = n - 1 WHERE day = old.created_dt / 86400000;
      END;
      CREATE TRIGGER customer_days_after_update AFTER UPDATE OF created_dt, archived_dt ON customers
      WHEN old.archived_dt IS NULL OR new.archived_dt IS NULL BEGIN
        UPDATE customer_days SET n = n - 1 WHERE day = old.created_dt / 86400000 AND old.archived_dt IS NULL;
        INSERT OR IGNORE INTO customer_days (day, n) SELECT new.created_dt / 86400000, 0 WHERE new.archived_dt IS NULL;
        UPDATE customer_days SET n = n + 1 WHERE day = new.created_dt / 86400000 AND new.archived_dt IS NULL;
      END;
    `,
  },
  {
    version: 9,
    name: 'money owed per customer',
    // What each customer owes (invoiced jobs, not archived) and the total, kept by triggers in the
    // same transaction as the write (decision 0080): grouping every invoiced job by customer cost
    // most of the summary at 100 000 customers, even from a covering index. The top of the list
    // is read off customer_owed_top; the total is one row.
    up: `
      DROP INDEX jobs_owed_idx;
      CREATE TABLE customer_owed (customer_id INTEGER PRIMARY KEY, cents INTEGER NOT NULL, n INTEGER NOT NULL);
      INSERT INTO customer_owed (customer_id, cents, n)
      SELECT customer_id, sum(price_cents), count(*) FROM jobs WHERE status = 'invoiced' AND archived_dt IS NULL GROUP BY customer_id;
      CREATE INDEX customer_owed_top ON customer_owed (cents DESC, customer_id);
      CREATE TABLE owed_total (k INTEGER PRIMARY KEY CHECK (k = 1), cents INTEGER NOT NULL, n INTEGER NOT NULL);
      INSERT INTO owed_total (k, cents, n)
      SELECT 1, coalesce(sum(price_cents), 0), count(*) FROM jobs WHERE status = 'invoiced' AND archived_dt IS NULL;
      CREATE TRIGGER owed_after_insert AFTER INSERT ON jobs WHEN new.status = 'invoiced' AND new.archived_dt IS NULL BEGIN
        INSERT OR IGNORE INTO customer_owed (customer_id, cents, n) VALUES (new.customer_id, 0, 0);
        UPDATE customer_owed SET cents = cents + new.price_cents, n = n + 1 WHERE customer_id = new.customer_id;
        UPDATE owed_total SET cents = cents + new.price_cents, n = n + 1;
      END;
      CREATE TRIGGER owed_after_delete AFTER DELETE ON jobs WHEN old.status = 'invoiced' AND old.archived_dt IS NULL BEGIN
        UPDATE customer_owed SET cents = cents - old.price_cents, n = n - 1 WHERE customer_id = old.customer_id;
        UPDATE owed_total SET cents = cents - old.price_cents, n = n - 1;
      END;
      CREATE TRIGGER owed_after_update AFTER UPDATE OF status, price_cents, customer_id, archived_dt ON jobs
      WHEN (old.status = 'invoiced' AND old.archived_dt IS NULL) OR (new.status = 'invoiced' AND new.archived_dt IS NULL) BEGIN
        UPDATE customer_owed SET cents = cents - old.price_cents, n = n - 1 WHERE customer_id = old.customer_id AND old.status = 'invoiced' AND old.archived_dt IS NULL;
        UPDATE owed_total SET cents = cents - old.price_cents, n = n - 1 WHERE old.status = 'invoiced' AND old.archived_dt IS NULL;
        INSERT OR IGNORE INTO customer_owed (customer_id, cents, n) SELECT new.customer_id, 0, 0 WHERE new.status = 'invoiced' AND new.archived_dt IS NULL;
        UPDATE customer_owed SET cents = cents + new.price_cents, n = n + 1 WHERE customer_id = new.customer_id AND new.status = 'invoiced' AND new.archived_dt IS NULL;
        UPDATE owed_total SET cents = cents + new.price_cents, n = n + 1 WHERE new.status = 'invoiced' AND new.archived_dt IS NULL;
      END;
    `,
  },
  {
    version: 10,
    name: 'request log',
    // The answers of the latest writes sent with a request id (x-otto-request-id), written in each
    // write's own transaction: a write sent again after its owner tab closed is answered from here
    // instead of running twice (decision 0054). Only the latest few hundred are kept.
    up: `
      CREATE TABLE request_log (
        request_id TEXT NOT NULL UNIQUE,
        status INTEGER NOT NULL,
        headers TEXT NOT NULL,
        body TEXT NOT NULL
      );
    `,
  },
];
