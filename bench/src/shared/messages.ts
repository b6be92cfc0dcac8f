import type { JobContext, LoopPlan, Samples, SearchTerms } from './ops';

/** What the Node runner asks the direct page (and its worker) to do for one database size. */
export interface DirectRun {
  n: number;
  fakerSeed: number;
  /** The clock value seeding uses (epoch ms), so that every page seeds the same customers. */
  seedNow: number;
  /** How many times to seed the database from empty; the last one is kept for the loops. */
  seedRuns: number;
  plan: Omit<LoopPlan, 'ctx'>;
  /** Fixed words; the rare word is picked from the data when absent. */
  terms: Omit<SearchTerms, 'rare'> & { rare?: string };
  /** Also time inserting `n` ready-made customers (no faker) in one transaction, on a scratch file. */
  bulkLoad?: boolean;
  /** SQL run on the database before the loops (experiments: `--pragmas="PRAGMA cache_size = -32000"`). */
  pragmas?: string;
}

/** How long one seeding took, split in its parts (milliseconds). */
export interface SeedTiming {
  /** Loading SQLite WASM (first run only) and opening the OPFS database. */
  open: number;
  /** createMockApi on the empty database: migrations and seeding in one transaction. */
  migrateAndSeed: number;
  total: number;
}

/** A statement's query plan, for the record. */
export interface QueryPlan {
  label: string;
  sql: string;
  plan: string[];
}

export interface DirectResult {
  storage: string;
  sqliteVersion: string;
  seeds: SeedTiming[];
  terms: SearchTerms;
  /** How many customers each search word matches. */
  matches: Record<keyof SearchTerms, number>;
  /** The jobs the job operations work on (the seeded ones and those made for status moves). */
  jobs: JobContext;
  /** How many jobs the job search word matches. */
  jobMatches: number;
  samples: Samples;
  /** Inserting n ready-made customers in one transaction (indexes and full-text triggers included). */
  bulkLoad?: BulkLoadTiming;
  plans: QueryPlan[];
  crossOriginIsolated: boolean;
}

export type DirectWorkerMessage = { type: 'run'; run: DirectRun };
export type DirectWorkerReply = { type: 'done'; result: DirectResult } | { type: 'failed'; message: string };

/**
 * Inserting n ready-made customers (and their jobs) in one transaction, and the same database as a
 * first-start file: its size, the time to make it, and the time from nothing to the first list
 * answered from it (put in OPFS, dates moved).
 */
export interface BulkLoadTiming {
  rows: number;
  jobs: number;
  ms: number;
  file?: { bytes: number; makeMs: number; loadMs: number };
  /**
   * That database backed up (`exportDatabase`) and the backup restored into it as the DB worker
   * restores one: checked in a scratch file (`checkBackup`, a Blob read a slice at a time), put in
   * place, reopened and its first list answered.
   */
  backupRestore?: { backupMs: number; bytes: number; checkMs: number; replaceMs: number; customers: number };
}
