import type { Migration } from '@otto/sqlite-store';

/** Phones longer than this many characters keep only the digits of their first 40 in phone_digits. */
const phoneDigitsScanLength = 40;

/**
 * SQL for the phone_digits text of a phone: every suffix of its digits that has at least four of
 * them, separated by spaces ('' when it has fewer than four). Written out position by position, as
 * SQLite has no regular expressions and triggers take no common table expressions.
 */
function phoneDigitSuffixesSql(phone: string): string {
  const digits = Array.from(
    { length: phoneDigitsScanLength },
    (_, i) => `CASE WHEN substr(${phone}, ${i + 1}, 1) GLOB '[0-9]' THEN substr(${phone}, ${i + 1}, 1) ELSE '' END`,
  ).join(' || ');
  const suffixes = Array.from(
    { length: phoneDigitsScanLength - 3 },
    (_, i) => `CASE WHEN length(d) >= ${i + 4} THEN substr(d, 1 + length(d) - ${i + 4}) || ' ' ELSE '' END`,
  ).join(' || ');
  return `(SELECT ${suffixes} FROM (SELECT ${digits} AS d))`;
}

/**
 * The schema of the Otto database, one numbered step at a time. Never edit a released migration:
 * add a new one.
 * @example
 * store.migrate(migrations); // what createMockApi does on start
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'customers',
    // customers_fts rows are keyed by the customer id (rowid), so the update trigger rewrites one
    // row instead of scanning the index for customer_id_fk.
    up: `
      CREATE TABLE customers (
        id INTEGER PRIMARY KEY,
        full_name TEXT NOT NULL,
        phone TEXT NOT NULL,
        email TEXT NOT NULL,
        created_dt INTEGER NOT NULL,
        modified_dt INTEGER NOT NULL
      );
      CREATE INDEX customers_modified_dt_idx ON customers (modified_dt DESC, id DESC);
      CREATE VIRTUAL TABLE customers_fts USING fts5(
        customer_id_fk UNINDEXED,
        customer_text,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER customers_fts_after_insert AFTER INSERT ON customers BEGIN
        INSERT INTO customers_fts (rowid, customer_id_fk, customer_text)
        VALUES (new.id, new.id, new.full_name || ' ' || new.email || ' ' || new.phone);
      END;
      CREATE TRIGGER customers_fts_after_update AFTER UPDATE ON customers BEGIN
        UPDATE customers_fts
        SET customer_text = new.full_name || ' ' || new.email || ' ' || new.phone
        WHERE rowid = new.id;
      END;
    `,
  },
  {
    version: 2,
    name: 'jobs',
    // A timestamp column per status (<status>_dt) records when the job last reached it.
    // jobs_fts rows are keyed by the job id and also hold the customer's name, kept current by
    // a trigger on customers.
    up: `
      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        customer_id INTEGER NOT NULL REFERENCES customers (id),
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        service_address TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL CHECK (status IN ('quote', 'scheduled', 'in_progress', 'completed', 'invoiced', 'paid', 'cancelled')),
        assignee TEXT NOT NULL DEFAULT '',
        scheduled_start_dt INTEGER,
        scheduled_end_dt INTEGER CHECK (
          scheduled_end_dt IS NULL OR (scheduled_start_dt IS NOT NULL AND scheduled_end_dt >= scheduled_start_dt)
        ),
        price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
        created_dt INTEGER NOT NULL,
        modified_dt INTEGER NOT NULL,
        quote_dt INTEGER,
        scheduled_dt INTEGER,
        in_progress_dt INTEGER,
        completed_dt INTEGER,
        invoiced_dt INTEGER,
        paid_dt INTEGER,
        cancelled_dt INTEGER
      );
      CREATE INDEX jobs_modified_dt_idx ON jobs (modified_dt DESC, id DESC);
      CREATE INDEX jobs_customer_idx ON jobs (customer_id, modified_dt DESC);
      CREATE INDEX jobs_status_idx ON jobs (status, modified_dt DESC);
      CREATE VIRTUAL TABLE jobs_fts USING fts5(job_text, tokenize = 'unicode61 remove_diacritics 2');
      CREATE TRIGGER jobs_fts_after_insert AFTER INSERT ON jobs BEGIN
        INSERT INTO jobs_fts (rowid, job_text)
        VALUES (new.id, new.title || ' ' || new.description || ' ' || new.service_address || ' ' ||
          coalesce((SELECT full_name FROM customers WHERE id = new.customer_id), ''));
      END;
      CREATE TRIGGER jobs_fts_after_update AFTER UPDATE OF title, description, service_address, customer_id ON jobs BEGIN
        UPDATE jobs_fts
        SET job_text = new.title || ' ' || new.description || ' ' || new.service_address || ' ' ||
          coalesce((SELECT full_name FROM customers WHERE id = new.customer_id), '')
        WHERE rowid = new.id;
      END;
      CREATE TRIGGER jobs_fts_after_customer_rename AFTER UPDATE OF full_name ON customers
      WHEN new.full_name IS NOT old.full_name BEGIN
        UPDATE jobs_fts
        SET job_text = (SELECT j.title || ' ' || j.description || ' ' || j.service_address || ' ' || new.full_name
                        FROM jobs j WHERE j.id = jobs_fts.rowid)
        WHERE rowid IN (SELECT id FROM jobs WHERE customer_id = new.id);
      END;
    `,
  },
  {
    version: 3,
    name: 'job counters',
    // Counts per status kept by triggers, so the status tabs and a list's total need not count
    // every job (issue 21; decision 0020). Every job has its customer (foreign keys are on, no
    // customer is ever deleted, a restored backup is checked), so no count needs a join either.
    // jobs_status_fts indexes the same text as jobs_fts, without storing it, under a rowid that
    // puts the status in its high bits ((k << 40) | id): a search's counts per status are one pass
    // over its matches' rowids, with no lookup of each job. The list indexes end with id DESC, the
    // list's tie-break, so a page needs no sort.
    up: `
      CREATE TABLE job_counts (status TEXT PRIMARY KEY, k INTEGER NOT NULL UNIQUE, n INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO job_counts (status, k, n)
      VALUES ('quote', 1, 0), ('scheduled', 2, 0), ('in_progress', 3, 0), ('completed', 4, 0), ('invoiced', 5, 0), ('paid', 6, 0), ('cancelled', 7, 0);
      UPDATE job_counts SET n = (SELECT count(*) FROM jobs WHERE jobs.status = job_counts.status);
      CREATE TRIGGER job_counts_after_insert AFTER INSERT ON jobs BEGIN
        UPDATE job_counts SET n = n + 1 WHERE status = new.status;
      END;
      CREATE TRIGGER job_counts_after_delete AFTER DELETE ON jobs BEGIN
        UPDATE job_counts SET n = n - 1 WHERE status = old.status;
      END;
      CREATE TRIGGER job_counts_after_status AFTER UPDATE OF status ON jobs WHEN new.status IS NOT old.status BEGIN
        UPDATE job_counts SET n = n - 1 WHERE status = old.status;
        UPDATE job_counts SET n = n + 1 WHERE status = new.status;
      END;

      CREATE VIRTUAL TABLE jobs_status_fts USING fts5(
        job_text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO jobs_status_fts (rowid, job_text)
      SELECT ((SELECT k FROM job_counts WHERE status = j.status) << 40) | j.id,
        j.title || ' ' || j.description || ' ' || j.service_address || ' ' || c.full_name
      FROM jobs j JOIN customers c ON c.id = j.customer_id;
      CREATE TRIGGER jobs_status_fts_after_insert AFTER INSERT ON jobs BEGIN
        INSERT INTO jobs_status_fts (rowid, job_text)
        VALUES (((SELECT k FROM job_counts WHERE status = new.status) << 40) | new.id,
          new.title || ' ' || new.description || ' ' || new.service_address || ' ' ||
          coalesce((SELECT full_name FROM customers WHERE id = new.customer_id), ''));
      END;
      CREATE TRIGGER jobs_status_fts_after_update AFTER UPDATE OF title, description, service_address, customer_id, status ON jobs
      WHEN new.status IS NOT old.status OR new.title IS NOT old.title OR new.description IS NOT old.description
        OR new.service_address IS NOT old.service_address OR new.customer_id IS NOT old.customer_id BEGIN
        DELETE FROM jobs_status_fts WHERE rowid = ((SELECT k FROM job_counts WHERE status = old.status) << 40) | old.id;
        INSERT INTO jobs_status_fts (rowid, job_text)
        VALUES (((SELECT k FROM job_counts WHERE status = new.status) << 40) | new.id,
          new.title || ' ' || new.description || ' ' || new.service_address || ' ' ||
          coalesce((SELECT full_name FROM customers WHERE id = new.customer_id), ''));
      END;
      CREATE TRIGGER jobs_status_fts_after_delete AFTER DELETE ON jobs BEGIN
        DELETE FROM jobs_status_fts WHERE rowid = ((SELECT k FROM job_counts WHERE status = old.status) << 40) | old.id;
      END;
      CREATE TRIGGER jobs_status_fts_after_customer_rename AFTER UPDATE OF full_name ON customers
      WHEN new.full_name IS NOT old.full_name BEGIN
        DELETE FROM jobs_status_fts WHERE rowid IN (
          SELECT ((SELECT k FROM job_counts WHERE status = j.status) << 40) | j.id FROM jobs j WHERE j.customer_id = new.id);
        INSERT INTO jobs_status_fts (rowid, job_text)
        SELECT ((SELECT k FROM job_counts WHERE status = j.status) << 40) | j.id,
          j.title || ' ' || j.description || ' ' || j.service_address || ' ' || new.full_name
        FROM jobs j WHERE j.customer_id = new.id;
      END;

      -- Every save sets every column, so migration 2's trigger rewrote a job's full-text row on
      -- every save, a status move included; now only when the text or the customer changes.
      DROP TRIGGER jobs_fts_after_update;
      CREATE TRIGGER jobs_fts_after_update AFTER UPDATE OF title, description, service_address, customer_id ON jobs
      WHEN new.title IS NOT old.title OR new.description IS NOT old.description
        OR new.service_address IS NOT old.service_address OR new.customer_id IS NOT old.customer_id BEGIN
        UPDATE jobs_fts
        SET job_text = new.title || ' ' || new.description || ' ' || new.service_address || ' ' ||
          coalesce((SELECT full_name FROM customers WHERE id = new.customer_id), '')
        WHERE rowid = new.id;
      END;

      DROP INDEX jobs_status_idx;
      CREATE INDEX jobs_status_idx ON jobs (status, modified_dt DESC, id DESC);
      DROP INDEX jobs_customer_idx;
      CREATE INDEX jobs_customer_idx ON jobs (customer_id, modified_dt DESC, id DESC);
    `,
  },
  {
    version: 4,
    name: 'report indexes',
    // GET /api/reports/summary (decision 0080). Partial indexes keep only the rows a figure reads,
    // each covering what it sums: jobs paid by when (also the job list's paid-month filter), money
    // owed per customer, this week's scheduled and in-progress jobs by start, customers by when
    // they were created.
    up: `
      CREATE INDEX jobs_paid_idx ON jobs (paid_dt, status, price_cents) WHERE paid_dt IS NOT NULL;
      CREATE INDEX jobs_owed_idx ON jobs (customer_id, price_cents) WHERE status = 'invoiced';
      CREATE INDEX jobs_week_idx ON jobs (scheduled_start_dt) WHERE status IN ('scheduled', 'in_progress');
      CREATE INDEX customers_created_dt_idx ON customers (created_dt);
    `,
  },
  {
    version: 5,
    name: 'import log',
    // The last CSV import, so that it can be undone (issue 13, decision 0060): the records it added
    // (prior NULL) and the whole row, as JSON, of each record it wrote over. Only the newest import
    // keeps its rows; an older one can no longer be undone.
    up: `
      CREATE TABLE imports (
        id INTEGER PRIMARY KEY,
        entity TEXT NOT NULL CHECK (entity IN ('customer', 'job')),
        at INTEGER NOT NULL,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        skipped INTEGER NOT NULL,
        undone_dt INTEGER
      );
      CREATE TABLE import_rows (
        import_id INTEGER NOT NULL REFERENCES imports (id),
        record_id INTEGER NOT NULL,
        prior TEXT,
        PRIMARY KEY (import_id, record_id)
      ) WITHOUT ROWID;
    `,
  },
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

/**
 * The full-text rows of the live customers whose id is above `?` (the largest id before an import
 * began), in one statement: what the insert trigger would have added, row by row, while
 * fts_deferred held 'customers' (migration 12).
 * @example
 * db.run(customerFtsRowsSql, [maxIdBefore]);
 */
export const customerFtsRowsSql = `
  INSERT INTO customers_fts (rowid, customer_id_fk, customer_text, phone_digits)
  SELECT c.id, c.id, c.full_name || ' ' || c.email || ' ' || c.phone, ${phoneDigitSuffixesSql('c.phone')}
  FROM customers c WHERE c.id > ? AND c.archived_dt IS NULL
    -- A row the import added and then updated (a duplicate of an earlier row) got its full-text
    -- row from the update trigger already.
    AND NOT EXISTS (SELECT 1 FROM customers_fts f WHERE f.rowid = c.id)`;

/**
 * The schema version the current code writes.
 * @example
 * if (store.userVersion() < latestSchemaVersion) store.migrate(migrations);
 */
export const latestSchemaVersion = migrations.length;
