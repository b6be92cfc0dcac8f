import { maxRankedMatches } from '../customers/customer-rows';
import { toPostgresTsQuery } from '../postgres/search';
import { active, and, jobColumns as columns, jobOrder, type JobRow } from './job-rows';
import type { JobSearch } from './job-search';

/** A job's search on PostgreSQL: its search vector against the tsquery (the first parameter). */
const pgMatch = 'j.search_vector @@ ?::tsquery';

/**
 * PostgreSQL: a tsquery with the meaning of SQLite's MATCH expression (decision 0112) against each
 * job's search vector (a partial GIN index leaves archived jobs out); counts per status are one
 * GROUP BY over its matches.
 */
export const postgresJobSearch: JobSearch = {
  match: async (_db, queryText) => toPostgresTsQuery(queryText),

  async count(db, _filter, sql) {
    return (await db.get<{ n: number }>(`SELECT count(*) AS n FROM jobs j ${and(active, pgMatch, sql.where)}`, [sql.match, ...sql.params]))?.n ?? 0;
  },

  page(db, _filter, sql, { limit, offset, total }, sort) {
    // The same order as SQLite's: best matches first, newest first past maxRankedMatches.
    const ranked = !sort && total <= maxRankedMatches;
    const order = sort ? jobOrder(db, sort) : ranked ? 'ts_rank(j.search_vector, ?::tsquery) DESC, j.modified_dt DESC, j.id DESC' : 'j.id DESC';
    return db.all<JobRow>(
      `SELECT ${columns} FROM jobs j JOIN customers c ON c.id = j.customer_id ${and(active, pgMatch, sql.where)}
       ORDER BY ${order} LIMIT ? OFFSET ?`,
      [sql.match, ...sql.params, ...(ranked ? [sql.match] : []), limit, offset],
    );
  },

  countsByStatus(db, sql) {
    return db.all(`SELECT j.status AS status, count(*) AS n FROM jobs j ${and(active, pgMatch, sql.where)} GROUP BY j.status`, [sql.match, ...sql.params]);
  },
};
