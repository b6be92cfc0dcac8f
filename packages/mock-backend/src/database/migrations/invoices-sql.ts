// The SQL of migration 18 (invoices, payments, business settings) both stores run, and the invoices
// every invoiced or paid job without one gets (decision 0161).

/** What the backfill says differently on SQLite and PostgreSQL: JSON building and calendar days. */
export type InvoiceSqlFlavour = 'sqlite' | 'postgres';

/** The UTC calendar day (`YYYY-MM-DD`) of an epoch-ms expression, `days` later. */
function utcDay(flavour: InvoiceSqlFlavour, ms: string, days = 0): string {
  return flavour === 'sqlite'
    ? `date(${ms} / 1000, 'unixepoch'${days ? `, '+${days} days'` : ''})`
    : `to_char((to_timestamp(${ms} / 1000.0) AT TIME ZONE 'UTC')${days ? ` + interval '${days} days'` : ''}, 'YYYY-MM-DD')`;
}

/**
 * Gives every invoiced or paid job that is on no invoice one of its own, as `priceLine` would price
 * it: one line (the job's title, 1 × its price, no tax, no discount), issued on the UTC day the job
 * was invoiced (else paid, else last changed), due 30 days later, numbered on from the business's
 * next number in the order the jobs were invoiced; a paid job's invoice gets one payment of its
 * price on the day it was paid. Run by migration 18 on every store and after a seed.
 * @example
 * db.exec(backfillInvoicesSql('sqlite'));
 */
export function backfillInvoicesSql(flavour: InvoiceSqlFlavour): string {
  return backfillInvoicesStatements(flavour).join(';\n');
}

/**
 * `backfillInvoicesSql` as one statement per entry, for a client that runs one at a time (after an
 * import: the dialect's `backfillInvoices`).
 * @example
 * for (const statement of backfillInvoicesStatements('postgres')) await sql.run(statement);
 */
export function backfillInvoicesStatements(flavour: InvoiceSqlFlavour): string[] {
  const line =
    flavour === 'sqlite'
      ? `json_array(json_object('description', b.title, 'quantity', 1, 'unit_price_cents', b.price_cents, 'tax_rate_bp', 0, 'discount_bp', 0,
           'amount_cents', b.price_cents, 'discount_cents', 0, 'tax_cents', 0, 'total_cents', b.price_cents))`
      : `json_build_array(json_build_object('description', b.title, 'quantity', 1, 'unit_price_cents', b.price_cents, 'tax_rate_bp', 0, 'discount_bp', 0,
           'amount_cents', b.price_cents, 'discount_cents', 0, 'tax_cents', 0, 'total_cents', b.price_cents))::text`;
  return `
    CREATE TEMP TABLE invoice_backfill AS
      SELECT j.id AS job_id, j.customer_id, j.title, j.price_cents, j.status,
        coalesce(j.invoiced_dt, j.paid_dt, j.modified_dt) AS issued_dt, coalesce(j.paid_dt, j.modified_dt) AS paid_at,
        (SELECT next_invoice_number FROM business_settings WHERE k = 1) - 1
          + row_number() OVER (ORDER BY coalesce(j.invoiced_dt, j.paid_dt, j.modified_dt), j.id) AS number
      FROM jobs j
      WHERE j.status IN ('invoiced', 'paid') AND NOT EXISTS (SELECT 1 FROM invoice_jobs x WHERE x.job_id = j.id);
    INSERT INTO invoices (number, prefix, customer_id, issue_date, due_date, lines_json, subtotal_cents, discount_cents, tax_cents,
      total_cents, paid_cents, balance_cents, job_count, note, seller_name, seller_address, seller_tax_number, created_dt, modified_dt, voided_dt)
    SELECT b.number, s.invoice_prefix, b.customer_id, ${utcDay(flavour, 'b.issued_dt')}, ${utcDay(flavour, 'b.issued_dt', 30)}, ${line},
      b.price_cents, 0, 0, b.price_cents,
      CASE WHEN b.status = 'paid' THEN b.price_cents ELSE 0 END, CASE WHEN b.status = 'paid' THEN 0 ELSE b.price_cents END,
      1, '', s.name, s.address, s.tax_number, b.issued_dt, b.issued_dt, NULL
    FROM invoice_backfill b CROSS JOIN business_settings s WHERE s.k = 1
    ORDER BY b.number;
    INSERT INTO invoice_jobs (invoice_id, job_id)
    SELECT i.id, b.job_id FROM invoice_backfill b JOIN invoices i ON i.number = b.number;
    INSERT INTO payments (invoice_id, amount_cents, paid_on, method, note, created_dt)
    SELECT i.id, b.price_cents, ${utcDay(flavour, 'b.paid_at')}, 'other', '', b.paid_at
    FROM invoice_backfill b JOIN invoices i ON i.number = b.number
    WHERE b.status = 'paid' AND b.price_cents > 0;
    UPDATE business_settings SET next_invoice_number = next_invoice_number + (SELECT count(*) FROM invoice_backfill) WHERE k = 1;
    DROP TABLE invoice_backfill
  `
    .split(';')
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/**
 * Migration 18's tables on either store (`id` the store's own key column, `bigint` its 64-bit type):
 * the business's details (one row), invoices (their lines a JSON document: printed as issued, never
 * queried one by one), the jobs each bills, payments; the job moves remember what a move into
 * invoiced or paid made, so that its undo takes exactly that back.
 */
export function invoiceTablesSql(id: string, bigint: string): string {
  return `
    CREATE TABLE business_settings (
      k INTEGER PRIMARY KEY CHECK (k = 1),
      name TEXT NOT NULL DEFAULT '',
      address TEXT NOT NULL DEFAULT '',
      tax_number TEXT NOT NULL DEFAULT '',
      invoice_prefix TEXT NOT NULL DEFAULT 'INV-',
      default_tax_rate_bp INTEGER NOT NULL DEFAULT 0,
      payment_terms_days INTEGER NOT NULL DEFAULT 30,
      next_invoice_number ${bigint} NOT NULL DEFAULT 1,
      modified_dt ${bigint} NOT NULL DEFAULT 0
    );
    INSERT INTO business_settings (k) VALUES (1);
    CREATE TABLE invoices (
      id ${id},
      number ${bigint} NOT NULL UNIQUE,
      prefix TEXT NOT NULL,
      customer_id ${bigint} NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
      issue_date TEXT NOT NULL,
      due_date TEXT NOT NULL,
      lines_json TEXT NOT NULL,
      subtotal_cents ${bigint} NOT NULL,
      discount_cents ${bigint} NOT NULL,
      tax_cents ${bigint} NOT NULL,
      total_cents ${bigint} NOT NULL,
      paid_cents ${bigint} NOT NULL,
      balance_cents ${bigint} NOT NULL,
      job_count INTEGER NOT NULL,
      note TEXT NOT NULL,
      currency TEXT NOT NULL DEFAULT '',
      seller_name TEXT NOT NULL,
      seller_address TEXT NOT NULL,
      seller_tax_number TEXT NOT NULL,
      created_dt ${bigint} NOT NULL,
      modified_dt ${bigint} NOT NULL,
      voided_dt ${bigint}
    );
    CREATE INDEX invoices_customer_idx ON invoices (customer_id, number DESC);
    -- The open invoices alone, by issue date: the list's open, overdue and age filters.
    CREATE INDEX invoices_open_idx ON invoices (issue_date, due_date, customer_id, balance_cents, job_count)
      WHERE voided_dt IS NULL AND balance_cents > 0;
    CREATE TABLE invoice_jobs (
      invoice_id ${bigint} NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
      job_id ${bigint} NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
      PRIMARY KEY (invoice_id, job_id)
    );
    CREATE INDEX invoice_jobs_job_idx ON invoice_jobs (job_id, invoice_id);
    CREATE TABLE payments (
      id ${id},
      invoice_id ${bigint} NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
      amount_cents ${bigint} NOT NULL,
      paid_on TEXT NOT NULL,
      method TEXT NOT NULL,
      note TEXT NOT NULL,
      created_dt ${bigint} NOT NULL
    );
    CREATE INDEX payments_invoice_idx ON payments (invoice_id, id);
    ALTER TABLE job_moves ADD COLUMN invoice_id ${bigint};
    ALTER TABLE job_moves ADD COLUMN payment_id ${bigint};
    -- A move into or out of invoiced or paid made before invoices could not be undone exactly now.
    DELETE FROM job_moves WHERE to_status IN ('invoiced', 'paid') OR from_status IN ('invoiced', 'paid');
  `;
}

const open = (row: string) => `${row}.voided_dt IS NULL AND ${row}.balance_cents > 0`;

/** SQLite's statements adding (`+`) or taking away (`-`) an open invoice `row` from the owed totals. */
function sqliteOwedChange(row: 'new' | 'old', sign: '+' | '-'): string {
  return `
      INSERT INTO owed_customers (customer_id, cents, invoices, jobs) VALUES (${row}.customer_id, ${sign}${row}.balance_cents, ${sign}1, ${sign}${row}.job_count)
        ON CONFLICT (customer_id) DO UPDATE SET cents = cents + excluded.cents, invoices = invoices + excluded.invoices, jobs = jobs + excluded.jobs;
      INSERT INTO owed_days (issue_date, cents, invoices, jobs) VALUES (${row}.issue_date, ${sign}${row}.balance_cents, ${sign}1, ${sign}${row}.job_count)
        ON CONFLICT (issue_date) DO UPDATE SET cents = cents + excluded.cents, invoices = invoices + excluded.invoices, jobs = jobs + excluded.jobs;
      INSERT INTO owed_due (due_date, cents, invoices) VALUES (${row}.due_date, ${sign}${row}.balance_cents, ${sign}1)
        ON CONFLICT (due_date) DO UPDATE SET cents = cents + excluded.cents, invoices = invoices + excluded.invoices;`;
}

/** PostgreSQL's statements of the same (inside its trigger function; `NEW`/`OLD`). */
function postgresOwedChange(row: 'NEW' | 'OLD', sign: '+' | '-'): string {
  return `
        INSERT INTO owed_customers AS x (customer_id, cents, invoices, jobs) VALUES (${row}.customer_id, ${sign}${row}.balance_cents, ${sign}1, ${sign}${row}.job_count)
          ON CONFLICT (customer_id) DO UPDATE SET cents = x.cents + excluded.cents, invoices = x.invoices + excluded.invoices, jobs = x.jobs + excluded.jobs;
        INSERT INTO owed_days AS x (issue_date, cents, invoices, jobs) VALUES (${row}.issue_date, ${sign}${row}.balance_cents, ${sign}1, ${sign}${row}.job_count)
          ON CONFLICT (issue_date) DO UPDATE SET cents = x.cents + excluded.cents, invoices = x.invoices + excluded.invoices, jobs = x.jobs + excluded.jobs;
        INSERT INTO owed_due AS x (due_date, cents, invoices) VALUES (${row}.due_date, ${sign}${row}.balance_cents, ${sign}1)
          ON CONFLICT (due_date) DO UPDATE SET cents = x.cents + excluded.cents, invoices = x.invoices + excluded.invoices;`;
}

/**
 * Money owed kept by triggers on invoices, as migration 9 kept it on jobs (decision 0080): per
 * customer (the Overview's top of the list, off owed_customers_top), per issue day (the ages: a
 * few hundred rows whatever the number of invoices) and per due day (overdue). Filled from the
 * invoices already there (migration 18's backfill), then kept by the triggers.
 */
export function owedTablesSql(flavour: InvoiceSqlFlavour, bigint: string): string {
  const triggers =
    flavour === 'sqlite'
      ? `
    CREATE TRIGGER owed_after_invoice_insert AFTER INSERT ON invoices WHEN ${open('new')} BEGIN ${sqliteOwedChange('new', '+')}
    END;
    CREATE TRIGGER owed_after_invoice_delete AFTER DELETE ON invoices WHEN ${open('old')} BEGIN ${sqliteOwedChange('old', '-')}
    END;
    CREATE TRIGGER owed_after_invoice_update_old AFTER UPDATE OF balance_cents, voided_dt, issue_date, due_date, customer_id, job_count ON invoices
      WHEN ${open('old')} BEGIN ${sqliteOwedChange('old', '-')}
    END;
    CREATE TRIGGER owed_after_invoice_update_new AFTER UPDATE OF balance_cents, voided_dt, issue_date, due_date, customer_id, job_count ON invoices
      WHEN ${open('new')} BEGIN ${sqliteOwedChange('new', '+')}
    END;`
      : `
    CREATE FUNCTION owed_invoices_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.voided_dt IS NULL AND OLD.balance_cents > 0 THEN ${postgresOwedChange('OLD', '-')}
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.voided_dt IS NULL AND NEW.balance_cents > 0 THEN ${postgresOwedChange('NEW', '+')}
        END IF;
        RETURN NULL;
      END
    $fn$;
    CREATE TRIGGER owed_after_invoice AFTER INSERT OR UPDATE OR DELETE ON invoices FOR EACH ROW EXECUTE FUNCTION owed_invoices_trigger();`;
  return `
    CREATE TABLE owed_customers (customer_id ${bigint} PRIMARY KEY, cents ${bigint} NOT NULL, invoices ${bigint} NOT NULL, jobs ${bigint} NOT NULL);
    CREATE INDEX owed_customers_top ON owed_customers (cents DESC, customer_id);
    CREATE TABLE owed_days (issue_date TEXT PRIMARY KEY, cents ${bigint} NOT NULL, invoices ${bigint} NOT NULL, jobs ${bigint} NOT NULL);
    CREATE TABLE owed_due (due_date TEXT PRIMARY KEY, cents ${bigint} NOT NULL, invoices ${bigint} NOT NULL);
    INSERT INTO owed_customers (customer_id, cents, invoices, jobs)
      SELECT customer_id, sum(balance_cents), count(*), sum(job_count) FROM invoices i WHERE ${open('i')} GROUP BY customer_id;
    INSERT INTO owed_days (issue_date, cents, invoices, jobs)
      SELECT issue_date, sum(balance_cents), count(*), sum(job_count) FROM invoices i WHERE ${open('i')} GROUP BY issue_date;
    INSERT INTO owed_due (due_date, cents, invoices)
      SELECT due_date, sum(balance_cents), count(*) FROM invoices i WHERE ${open('i')} GROUP BY due_date;
    ${triggers}
  `;
}
