import type { JobStatus } from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import type { JobFilter, JobFilterSql, JobRow, JobSort } from './job-rows';

/** A filter whose search text can match something: its match is the dialect's. */
export type JobSearchSql = JobFilterSql & { match: string };

/**
 * Job search as each dialect does it, with one meaning (decision 0112): SQLite's FTS5 tables
 * jobs_fts and jobs_status_fts, PostgreSQL's search vector on the row. Archived jobs are never found.
 */
export interface JobSearch {
  /** What a person typed as this dialect's match (bind it as a parameter); `null` when nothing can match. */
  match(db: SqlClient, queryText: string): Promise<string | null>;
  /** How many jobs match the search and the filter's conditions. */
  count(db: SqlClient, filter: JobFilter, sql: JobSearchSql): Promise<number>;
  /**
   * One page of the matching jobs: best matches first (rank, then newest modified), newest first
   * when more than `maxRankedMatches` match (`total`); `sort` replaces that order.
   */
  page(db: SqlClient, filter: JobFilter, sql: JobSearchSql, page: { limit: number; offset: number; total: number }, sort?: JobSort): Promise<JobRow[]>;
  /** The matches per status (the filter's status aside; statuses with none may be left out). */
  countsByStatus(db: SqlClient, sql: JobSearchSql): Promise<{ status: JobStatus; n: number }[]>;
}
