import { requestIdPolicy } from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import { ApiError } from './api-error';
import { requestIdHeader } from './request-id';

export { requestIdHeader };

/** What a committed write answered, kept with its id. */
export interface LoggedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The request a request id names (decision 0121): its method, its path with the query, and the
 * SHA-256 of its body (hex). The same id sent with another request is refused.
 */
export interface RequestFingerprint {
  method: string;
  path: string;
  bodySha256: string;
}

/** A request id as the log takes it: a short printable string, else none (the write runs as usual). */
export function requestIdOf(request: Request): string | undefined {
  const id = request.headers.get(requestIdHeader)?.trim();
  return id && id.length <= 100 && /^[\w.:-]+$/.test(id) ? id : undefined;
}

/**
 * The fingerprint of a write: method, path with query, and the SHA-256 of the body bytes it sent
 * (WebCrypto, in browsers and Node alike).
 * @example
 * const fingerprint = await fingerprintOf('POST', '/customers', new TextEncoder().encode('{"full_name":"Ada"}'));
 */
export async function fingerprintOf(method: string, path: string, body: Uint8Array): Promise<RequestFingerprint> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>));
  const bodySha256 = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  return { method: method.toUpperCase(), path, bodySha256 };
}

/**
 * The answer a write with this id already got, if it committed less than
 * `requestIdPolicy.maxAgeMs` ago and named the same request; a 422 `REQUEST_ID_REUSED` (nothing
 * runs) when the id named another request. An answer older than the age bound is forgotten here.
 * Call inside the write's transaction.
 * @example
 * const earlier = await loggedAnswer(db, id, fingerprint, Date.now()); if (earlier) return replay(earlier);
 */
export async function loggedAnswer(db: SqlClient, id: string, request: RequestFingerprint, now: number): Promise<LoggedAnswer | undefined> {
  // On PostgreSQL units of work run side by side: the same write sent again while its first run is
  // still open waits here for it to end, then reads its answer (instead of running a second time
  // and failing on the log's key). SQLite runs one unit of work at a time.
  const keyLock = db.dialect.keyLock;
  if (keyLock !== null) await db.get(keyLock, [`otto request ${id}`]);
  const row = await db.get<{ method: string; path: string; body_sha256: string; logged_dt: number; status: number; headers: string; body: string }>(
    'SELECT method, path, body_sha256, logged_dt, status, headers, body FROM request_log WHERE request_id = ?',
    [id],
  );
  if (!row) return undefined;
  if (now - Number(row.logged_dt) > requestIdPolicy.maxAgeMs) {
    await db.run('DELETE FROM request_log WHERE request_id = ?', [id]);
    return undefined;
  }
  if (row.method !== request.method || row.path !== request.path || row.body_sha256 !== request.bodySha256) {
    const what = row.method !== request.method || row.path !== request.path ? `${row.method} ${row.path}` : `${row.method} ${row.path} with another body`;
    throw new ApiError(
      422,
      'REQUEST_ID_REUSED',
      `The request id ${JSON.stringify(id)} (${requestIdHeader}) already named another request (${what}), so this one was not run. Send a new request id with every new request; send the same one only to repeat the same request.`,
    );
  }
  return { status: row.status, headers: JSON.parse(row.headers) as Record<string, string>, body: row.body };
}

/**
 * Keeps a write's answer under its id with the request it answered, in the write's own
 * transaction (so it is kept exactly when the write commits). Every hundredth answer sweeps the
 * log: answers older than `requestIdPolicy.maxAgeMs` go, then the oldest while more than
 * `maxAnswers` or `maxBytes` of answers are kept.
 * @example
 * await logAnswer(db, id, fingerprint, { status: 200, headers: {}, body: '{"id":"7"}' }, Date.now());
 */
export async function logAnswer(db: SqlClient, id: string, request: RequestFingerprint, answer: LoggedAnswer, now: number): Promise<void> {
  const row = await db.get<{ seq: number }>(
    'INSERT INTO request_log (request_id, method, path, body_sha256, logged_dt, status, headers, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq',
    [id, request.method, request.path, request.bodySha256, now, answer.status, JSON.stringify(answer.headers), answer.body],
  );
  const seq = Number(row?.seq ?? 0);
  if (seq % 100 === 0) await sweepRequestLog(db, now);
}

/**
 * Forgets the answers older than the age bound, then the oldest beyond the count and size bounds.
 * @example
 * await sweepRequestLog(db, Date.now());
 */
export async function sweepRequestLog(db: SqlClient, now: number): Promise<void> {
  await db.run('DELETE FROM request_log WHERE logged_dt < ?', [now - requestIdPolicy.maxAgeMs]);
  // The newest maxAnswers answers whose bodies and headers add up to at most maxBytes stay.
  const bytesOf = (column: string) => db.dialect.byteLength(column);
  const cut = await db.get<{ seq: number }>(
    `SELECT seq FROM (
       SELECT seq, row_number() OVER (ORDER BY seq DESC) AS n, sum(${bytesOf('body')} + ${bytesOf('headers')}) OVER (ORDER BY seq DESC) AS bytes FROM request_log
     ) kept WHERE n > ? OR bytes > ? ORDER BY seq DESC LIMIT 1`,
    [requestIdPolicy.maxAnswers, requestIdPolicy.maxBytes],
  );
  if (cut) await db.run('DELETE FROM request_log WHERE seq <= ?', [cut.seq]);
}
