import type { Migration } from '@otto/sqlite-store';

/**
 * The schema of the Otto database, one numbered step at a time. Never edit a released migration:
 * add a new one.
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
];

/** The schema version the current code writes. */
export const latestSchemaVersion = migrations.length;
