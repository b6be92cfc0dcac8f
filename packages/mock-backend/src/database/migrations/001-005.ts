// Migrations 1 to 5 of the Otto schema: customers, jobs, job counters, report indexes, import log.
import type { Migration } from '@otto/sqlite-store';

/** Migrations 1 to 5 of the Otto database; migrations.ts composes them in order. */
export const migrations001To005: readonly Migration[] = [
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
];
