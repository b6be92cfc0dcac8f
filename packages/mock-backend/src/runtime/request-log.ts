import type { Database } from '@otto/sqlite-store';
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
 * const earlier = loggedAnswer(db, id); if (earlier) return replay(earlier);
 */
export function loggedAnswer(db: Database, id: string): LoggedAnswer | undefined {
  const row = db.get<{ status: number; headers: string; body: string }>('SELECT status, headers, body FROM request_log WHERE request_id = ?', [id]);
  return row ? { status: row.status, headers: JSON.parse(row.headers) as Record<string, string>, body: row.body } : undefined;
}

/**
 * Keeps a write's answer under its id, in the write's own transaction (so it is kept exactly when
 * the write commits), and forgets all but the latest answers.
 * @example
 * logAnswer(db, id, { status: 200, headers: {}, body: '{"id":"7"}' });
 */
export function logAnswer(db: Database, id: string, answer: LoggedAnswer): void {
  const { lastInsertRowid } = db.run('INSERT INTO request_log (request_id, status, headers, body) VALUES (?, ?, ?, ?)', [
    id,
    answer.status,
    JSON.stringify(answer.headers),
    answer.body,
  ]);
  if (lastInsertRowid % 100 === 0) db.run('DELETE FROM request_log WHERE rowid <= ?', [lastInsertRowid - keptAnswers]);
}
