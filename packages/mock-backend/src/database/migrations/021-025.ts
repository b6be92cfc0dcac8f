// Migrations 21 on of the Otto schema.
import type { Migration } from '@otto/sqlite-store';

/**
 * Step 21's SQL, the same on SQLite and PostgreSQL (src/postgres/migrations.ts runs it as its step
 * 21): what a device's sync needs to stay live (issue 53, decision 0165). Per waiting write, how
 * many times in a row the server failed it (a write it keeps failing is set aside as a notice, so
 * that the writes behind it go on) and the copy's position when it was made (a pull skips the
 * records a waiting write touched; when that write is refused, the copy pulls again from there).
 * Per device, where a pull cut short goes on (a first sync continues from its last page).
 */
export const syncLivenessSql = (bigint: string) => `
      ALTER TABLE sync_outbox ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sync_outbox ADD COLUMN made_at_position ${bigint};
      ALTER TABLE sync_device ADD COLUMN pull_page TEXT;
`;

/** Migrations 21 on of the Otto database; migrations.ts composes them in order. */
export const migrations021To025: readonly Migration[] = [
  {
    version: 21,
    name: 'sync liveness',
    up: syncLivenessSql('INTEGER'),
  },
];
