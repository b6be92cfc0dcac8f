import type { Migration } from '@otto/sqlite-store';

import { migrations001To005 } from './migrations/001-005';
import { migrations006To010 } from './migrations/006-010';
import { migrations011To015 } from './migrations/011-015';
import { migrations016To020 } from './migrations/016-020';
import { migrations021To025 } from './migrations/021-025';
import { phoneDigitsSql, suffixesOfDigitsSql } from './migrations/phone-digit-suffixes-sql';

/**
 * The schema of the Otto database, one numbered step at a time. Never edit a released migration:
 * add a new one.
 * @example
 * store.migrate(migrations); // what createMockApi does on start
 */
export const migrations: readonly Migration[] = [
  ...migrations001To005,
  ...migrations006To010,
  ...migrations011To015,
  ...migrations016To020,
  ...migrations021To025,
];

/**
 * The full-text rows of the live customers whose id is above `?` (the largest id before an import
 * began), in one statement: what the insert trigger would have added, row by row, while
 * fts_deferred held 'customers' (migration 12).
 * @example
 * db.run(customerFtsRowsSql, [maxIdBefore]);
 */
export const customerFtsRowsSql = `
  WITH p AS MATERIALIZED (
    SELECT c.id, ${phoneDigitsSql('c.phone')} AS d FROM customers c WHERE c.id > ? AND c.archived_dt IS NULL
      -- A row the import added and then updated (a duplicate of an earlier row) got its full-text
      -- row from the update trigger already.
      AND NOT EXISTS (SELECT 1 FROM customers_fts f WHERE f.rowid = c.id))
  -- The digits worked out once per customer (a materialized CTE): written out inside the suffixes,
  -- SQLite would scan the phone at each of their 74 uses.
  INSERT INTO customers_fts (rowid, customer_id_fk, customer_text, phone_digits)
  SELECT c.id, c.id, c.full_name || ' ' || c.email || ' ' || c.phone, ${suffixesOfDigitsSql('p.d')}
  FROM p JOIN customers c ON c.id = p.id ORDER BY c.id`;

/**
 * The schema version the current code writes.
 * @example
 * if (store.userVersion() < latestSchemaVersion) store.migrate(migrations);
 */
export const latestSchemaVersion = migrations.length;
