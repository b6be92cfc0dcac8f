import type { SqlClient } from '../sql/types';
import { requestIdHeader } from './request-id';

export { requestIdHeader };

/** The answers kept: enough for every write still in flight when an owner tab closes. */
const keptAnswers = 500;

/** What a committed write answered, kept with its id. */
export interface LoggedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request id as the log takes it: a short printable string, else none (the write runs as usual). */
export function requestIdOf(request: Request): string | undefined {
  const id = request.headers.get(requestIdHeader)?.trim();
  return id && id.length <= 100 && /^[\w.:-]+$/.test(id) ? id : undefined;
}

/**
 * The answer a write with this id already got, if it committed. Call inside the write's transaction.
 * @example
 * const earlier = await loggedAnswer(db, id); if (earlier) return replay(earlier);
 */
export async function loggedAnswer(db: SqlClient, id: string): Promise<LoggedAnswer | undefined> {
  // On PostgreSQL units of work run side by side: the same write sent again while its first run is
  // still open waits here for it to end, then reads its answer (instead of running a second time
  // and failing on the log's key). SQLite runs one unit of work at a time.
  if (db.dialect === 'postgres') await db.get("SELECT pg_advisory_xact_lock(hashtext('otto request ' || ?))", [id]);
  const row = await db.get<{ status: number; headers: string; body: string }>('SELECT status, headers, body FROM request_log WHERE request_id = ?', [id]);
  return row ? { status: row.status, headers: JSON.parse(row.headers) as Record<string, string>, body: row.body } : undefined;
}

/**
 * Keeps a write's answer under its id, in the write's own transaction (so it is kept exactly when
 * the write commits), and forgets all but the latest answers.
 * @example
 * await logAnswer(db, id, { status: 200, headers: {}, body: '{"id":"7"}' });
 */
export async function logAnswer(db: SqlClient, id: string, answer: LoggedAnswer): Promise<void> {
  // PostgreSQL's request_log numbers its rows in seq where SQLite's has its rowid.
  const key = db.dialect === 'sqlite' ? 'rowid' : 'seq';
  const row = await db.get<{ id: number }>(`INSERT INTO request_log (request_id, status, headers, body) VALUES (?, ?, ?, ?) RETURNING ${key} AS id`, [
    id,
    answer.status,
    JSON.stringify(answer.headers),
    answer.body,
  ]);
  const logged = row?.id ?? 0;
  if (logged % 100 === 0) await db.run(`DELETE FROM request_log WHERE ${key} <= ?`, [logged - keptAnswers]);
}
