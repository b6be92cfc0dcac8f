// A device's side of sync (issue 40, decision 0163): push the outbox in order, then pull what
// changed into the device's own copy, once no write of its own is waiting.
import {
  etagOf,
  jobStatuses,
  syncLimits,
  syncPullSchema,
  syncPushSchema,
  syncRoutes,
  type ChangeEvent,
  type Customer,
  type CustomerDetails,
  type Invoice,
  type Job,
  type SyncAnswer,
  type SyncPull,
  type SyncWrite,
} from '@otto/api-contract';
import type { Database, SqliteStore, SqlValue } from '@otto/sqlite-store';
import { bulkLoad } from '../database/bulk-load';
import { latestSchemaVersion } from '../database/migrations';
import { savepointsOnly } from '../runtime/create-router';
import { createSqliteSqlStore } from '../sql/sqlite-sql-store';
import type { SqlClient, SqlStore } from '../sql/types';
import { deleteCustomer } from '../customers/customer-repository';
import { deleteJob } from '../jobs/job-repository';
import { deviceCount, type IdTable } from './record-ids';

/**
 * How a device reaches its team server: a request below the API base (`/sync/pull?…`), answered
 * as `fetch` would (a network failure throws).
 * @example
 * const server: SyncServer = (path, init) => fetch(`https://otto.example.com/api${path}`, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } });
 */
export type SyncServer = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * A write the server refused: what it was, and the server's answer (a notice for the person who
 * made it, with the record as it is now on the server).
 * @example
 * const words = (n: SyncNotice) => `${n.method} ${n.path}: ${(n.answer.body as { message?: string }).message}`;
 */
export interface SyncNotice {
  requestId: string;
  method: string;
  path: string;
  body: unknown;
  madeAt: number;
  answer: { status: number; body: unknown };
  /**
   * Set aside because the server kept failing it (not refused by a rule): `retry(requestId)` sends
   * it again.
   */
  retry?: boolean;
}

/**
 * Where a device stands.
 * @example
 * const words = (s: DeviceSyncState) => (s.waiting === 0 ? 'Synced' : `${s.waiting} changes waiting`);
 */
export interface DeviceSyncState {
  /** The device's number (the range of the ids it gives what it creates). */
  deviceNo: number;
  /** Writes made here the server has not run yet. */
  waiting: number;
  /** Writes the server refused. */
  notices: SyncNotice[];
  /** The oldest of the writes waiting (at most 20), what they were: a notice's shape without an answer. */
  waitingList: Omit<SyncNotice, 'answer'>[];
  /** The server position this copy is at (undefined before the first sync). */
  position: number | undefined;
}

/**
 * What one `sync()` did.
 * @example
 * if (report.offline) showOffline(report.error);
 */
export interface SyncReport {
  pushed: number;
  refused: number;
  /** Edits refused because the record changed elsewhere, saved merged with that change (other fields). */
  merged: number;
  pulled: number;
  /** The server could not be reached (or answered 5xx): what is waiting stays, to push later. */
  offline: boolean;
  error?: string;
  /** Writes were still waiting, so the server's changes were not taken in yet. */
  held: boolean;
  /**
   * The team server's data is newer than this device's Otto knows: nothing is pushed until the
   * device is updated (its writes could erase what it does not know); pulls go on.
   */
  updateRequired?: boolean;
}

/**
 * Makes a database a device's copy: from now on the ids of what it creates come from its own range
 * and its writes wait in its outbox. Keeps the number it has when it is one already.
 * @example
 * const deviceNo = await makeDevice(api.store);
 */
export async function makeDevice(store: SqliteStore, deviceNo = Math.floor(Math.random() * deviceCount)): Promise<number> {
  const sql = createSqliteSqlStore(store);
  return sql.transaction(async (db) => {
    const row = await db.get<{ device_no: number }>('SELECT device_no FROM sync_device WHERE k = 1');
    if (row) return Number(row.device_no);
    await db.run('INSERT INTO sync_device (k, device_no, next_n) VALUES (1, ?, 1)', [deviceNo]);
    return deviceNo;
  });
}

/**
 * A device's sync with its team server: `sync()` pushes the outbox in order (a push whose answer
 * was lost is sent again: the server runs nothing twice), keeps each refusal as a notice and takes
 * back the server's version of what the refused write touched, then, once nothing of its own is
 * waiting, pulls what changed since its position into the copy (the records as the server has
 * them, its own writes included, as the server ran them). Calls to `sync()` run one at a time.
 * @example
 * const device = createDeviceSync({ store: api.store, server, publish: (e) => tabs.post(e) });
 * const report = await device.sync();
 */
export function createDeviceSync({
  store,
  server,
  publish = () => {},
  schema = latestSchemaVersion,
}: {
  store: SqliteStore;
  server: SyncServer;
  publish?: (event: ChangeEvent) => void;
  /** The data version this device's Otto knows (its schema): the latest of this code. */
  schema?: number;
}) {
  const sql = createSqliteSqlStore(store);
  let running: Promise<SyncReport> | undefined;
  // Whole pushes the server answered 5xx in a row: after two, one write at a time (pushAll); the
  // device's data version, and the server's as its last pull said (decision 0168).
  const pushes = { failedInARow: 0, schema, serverSchema: 0 };

  async function sync(): Promise<SyncReport> {
    const report: SyncReport = { pushed: 0, refused: 0, merged: 0, pulled: 0, offline: false, held: false };
    try {
      // The server's changes come in even when it failed a push (it answered): only a server out
      // of reach stops the pull.
      // Nothing is pushed by an Otto older than the server's data (its writes could erase fields
      // it does not know): the person is asked to update, and what waits stays.
      const outdated = pushes.serverSchema > pushes.schema;
      const reached = outdated ? true : await pushAll(sql, server, report, pushes);
      if (reached && !outdated) await refreshRefused(sql, server, publish);
      if (reached) await pullAll(sql, store, server, publish, report, pushes);
      if (pushes.serverSchema > pushes.schema) report.updateRequired = true;
    } catch (error) {
      report.offline = true;
      report.error ??= error instanceof Error ? error.message : String(error);
    }
    return report;
  }

  return {
    /** Pushes what waits, then pulls; one run at a time (a call during a run waits for the next). */
    async sync(): Promise<SyncReport> {
      while (running) await running.catch(() => undefined);
      running = sync();
      try {
        return await running;
      } finally {
        running = undefined;
      }
    },
    /** Where the device stands: waiting writes, notices, position. */
    state: () => deviceState(sql),
    /** Forgets a notice (the person has seen it). */
    dismiss: (requestId: string) => sql.transaction(async (db) => void (await db.run('DELETE FROM sync_outbox WHERE request_id = ? AND refused IS NOT NULL', [requestId]))),
    /**
     * Sends a write set aside because the server kept failing it (a notice whose answer says
     * `retry`) again, at its place in the order, with its count of failures back at nought.
     * Answers whether there was such a notice.
     */
    retry: (requestId: string) =>
      sql.transaction(async (db) => {
        const row = await db.get<{ refused: string }>('SELECT refused FROM sync_outbox WHERE request_id = ? AND refused IS NOT NULL', [requestId]);
        if (!row || (JSON.parse(row.refused) as { retry?: boolean }).retry !== true) return false;
        await db.run('UPDATE sync_outbox SET refused = NULL, failures = 0 WHERE request_id = ?', [requestId]);
        return true;
      }),
  };
}

async function deviceState(sql: SqlStore): Promise<DeviceSyncState> {
  return sql.transaction(
    async (db) => {
      const device = await db.get<{ device_no: number; position: number | null }>('SELECT device_no, position FROM sync_device WHERE k = 1');
      const waiting = Number((await db.get<{ n: number }>('SELECT count(*) AS n FROM sync_outbox WHERE refused IS NULL AND confirmed IS NULL'))?.n ?? 0);
      const refused = await db.all<{ request_id: string; method: string; path: string; body: string | null; made_dt: number; refused: string }>(
        'SELECT request_id, method, path, body, made_dt, refused FROM sync_outbox WHERE refused IS NOT NULL ORDER BY seq',
      );
      const oldest = await db.all<{ request_id: string; method: string; path: string; body: string | null; made_dt: number }>(
        'SELECT request_id, method, path, body, made_dt FROM sync_outbox WHERE refused IS NULL AND confirmed IS NULL ORDER BY seq LIMIT 20',
      );
      const bodyOf = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));
      return {
        deviceNo: Number(device?.device_no ?? -1),
        waiting,
        waitingList: oldest.map((r) => ({ requestId: r.request_id, method: r.method, path: r.path, body: bodyOf(r.body), madeAt: Number(r.made_dt) })),
        position: device?.position === null || device?.position === undefined ? undefined : Number(device.position),
        notices: refused.map((r) => {
          const { status, body, retry } = JSON.parse(r.refused) as { status: number; body: unknown; retry?: boolean };
          return {
            requestId: r.request_id, method: r.method, path: r.path, body: r.body === null ? null : (JSON.parse(r.body) as unknown), madeAt: Number(r.made_dt), answer: { status, body },
            ...(retry ? { retry: true } : {}),
          };
        }),
      };
    },
    { readOnly: true },
  );
}

interface OutboxRow {
  seq: number;
  request_id: string;
  method: SyncWrite['method'];
  path: string;
  body: string | null;
  if_match: string | null;
  after_request: string | null;
  ids: string;
  base: string | null;
}

/** A waiting write as a push sends it. */
function writeOf(row: OutboxRow): SyncWrite {
  const ids = JSON.parse(row.ids) as Partial<Record<IdTable, string[]>>;
  return {
    request_id: row.request_id,
    method: row.method,
    path: row.path,
    ...(row.body !== null ? { body: JSON.parse(row.body) as unknown } : {}),
    ...(row.if_match !== null ? { if_match: row.if_match } : {}),
    ...(Object.keys(ids).length ? { ids } : {}),
  };
}

/**
 * The most a push may weigh: the contract's limit for `POST /sync/push`, less room for the
 * envelope. Measured in UTF-8 bytes, which are never fewer than the characters a server counts.
 */
const maxPushBytes = (syncRoutes.push.maxBodyBytes ?? 4 * 1024 * 1024) - 1024;
const utf8 = new TextEncoder();

/**
 * How many times in a row the server may fail one write (a 5xx for it while it answers others)
 * before the device sets it aside as a notice with a retry: a write the server can never run must
 * not hold the writes behind it, nor every pull, for ever (issue 53, decision 0165).
 */
export const failuresBeforeSetAside = 3;

/**
 * Answers that say "not now" rather than "not this write" (a gateway or an overloaded server):
 * never counted against a write, however many in a row.
 */
const transientStatuses: ReadonlySet<number> = new Set([502, 503, 504]);

/** The notice of a write set aside because the server kept failing it, in words. */
const setAsideBody = {
  code: 'SERVER_KEEPS_FAILING',
  message: `The team server failed to save this change ${failuresBeforeSetAside} times in a row. It is set aside so that your other changes go on: try it again later, or tell whoever runs the server.`,
};

/**
 * Counts a failure of one waiting write; at `failuresBeforeSetAside` it is set aside (a notice that
 * can be retried) and the copy will pull again from where it stood when the write was made.
 * Answers whether it was set aside.
 */
async function countFailure(db: SqlClient, requestId: string, status: number): Promise<boolean> {
  if (transientStatuses.has(status)) return false;
  await db.run('UPDATE sync_outbox SET failures = failures + 1 WHERE request_id = ?', [requestId]);
  const row = await db.get<{ failures: number }>('SELECT failures FROM sync_outbox WHERE request_id = ?', [requestId]);
  if (Number(row?.failures ?? 0) < failuresBeforeSetAside) return false;
  await refuse(db, requestId, { status, body: setAsideBody, refreshed: false, retry: true });
  return true;
}

/**
 * Marks a waiting write refused (a notice), and moves the copy's position back to where it stood
 * when the write was made: the pulls since then skipped what it touched (pullAll), and now take it.
 */
async function refuse(db: SqlClient, requestId: string, refused: { status: number; body: unknown; refreshed: boolean; retry?: boolean }): Promise<void> {
  await db.run('UPDATE sync_outbox SET refused = ? WHERE request_id = ?', [JSON.stringify(refused), requestId]);
  await pullAgainFrom(db, requestId);
}

/**
 * Moves the copy's position back, so that the next pull brings again what the pulls skipped while
 * a write waited (pullAll): to just before `version` (the one the server gave the write, whose
 * changes sit at that position in its log), else to where the copy stood when the write was made.
 * A write whose answer was lost ran on the server while it still waited here: without this, its
 * record would keep this device's version for good.
 */
async function pullAgainFrom(db: SqlClient, requestId: string, version?: number): Promise<void> {
  const row = await db.get<{ made_at_position: number | null }>('SELECT made_at_position FROM sync_outbox WHERE request_id = ?', [requestId]);
  const from = version !== undefined ? version - 1 : row?.made_at_position;
  if (from !== null && from !== undefined) await db.run('UPDATE sync_device SET position = min(position, ?) WHERE k = 1 AND position IS NOT NULL', [Number(from)]);
}

/**
 * Sends the waiting writes in order, in pushes of at most `syncLimits.maxPushWrites` and
 * `maxPushBytes`. After two whole pushes answered 5xx in a row, one write at a time: a write that
 * makes the server fail the whole push is then found, and counted (`countFailure`) when the server
 * answers other requests meanwhile (it is up: it is this write it cannot run).
 */
async function pushAll(sql: SqlStore, server: SyncServer, report: SyncReport, pushes: { failedInARow: number; schema: number; serverSchema: number }): Promise<boolean> {
  for (;;) {
    const one = pushes.failedInARow >= 2;
    const rows = await sql.transaction(
      (db) =>
        db.all<OutboxRow>('SELECT seq, request_id, method, path, body, if_match, after_request, ids, base FROM sync_outbox WHERE refused IS NULL AND confirmed IS NULL ORDER BY seq LIMIT ?', [
          one ? 1 : syncLimits.maxPushWrites,
        ]),
      { readOnly: true },
    );
    if (rows.length === 0) {
      // Nothing waits: the next writes go in pushes of many again.
      pushes.failedInARow = 0;
      return true;
    }
    // A write made over the version an earlier write of this push made waits for that write's
    // answer (the server gives that version its own number): the push ends before it.
    // A push also ends before the write that would take it past the server's size limit (a push of
    // 200 long notes would be refused whole, every time): cut by bytes as well as by count.
    const inPush = new Set<string>();
    const batch: OutboxRow[] = [];
    const writes: SyncWrite[] = [];
    let bytes = 0;
    for (const row of rows) {
      if (row.after_request !== null && inPush.has(row.after_request)) break;
      const write = writeOf(row);
      const size = utf8.encode(JSON.stringify(write)).length + 1;
      if (batch.length > 0 && bytes + size > maxPushBytes) break;
      batch.push(row);
      writes.push(write);
      inPush.add(row.request_id);
      bytes += size;
    }
    let answers: SyncAnswer[];
    try {
      const res = await server('/sync/push', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ writes, schema: pushes.schema }) });
      if (res.status === 409) {
        const refusal = (await res.json().catch(() => ({}))) as { code?: string };
        if (refusal.code === 'UPDATE_REQUIRED') {
          // The server's data is newer than this Otto: nothing ran; the writes wait for the update.
          pushes.serverSchema = Math.max(pushes.serverSchema, pushes.schema + 1);
          return true;
        }
        throw new Error('The server refused the push (409).');
      }
      if (res.status >= 500) {
        pushes.failedInARow++;
        // One write alone, failed (not "not now") while the server answers a read: that write is what fails.
        if (batch.length === 1 && !transientStatuses.has(res.status) && (await serverAnswers(server))) {
          const setAside = await sql.transaction((db) => countFailure(db, batch[0]!.request_id, res.status));
          if (setAside) {
            // Found and set aside: the others go in pushes of many again.
            pushes.failedInARow = 0;
            report.refused++;
            continue;
          }
        }
        report.offline = true;
        report.error = `The server answered ${res.status}.`;
        return true;
      }
      if (res.status === 401 || res.status === 403) {
        report.offline = true;
        report.error = `The server answered ${res.status}.`;
        return true;
      }
      // One at a time until a push of several goes through again.
      if (batch.length > 1) pushes.failedInARow = 0;
      if (res.status === 413 && batch.length === 1) {
        // One write larger than a push may be: the server can never take it. It is set aside as a
        // notice, in words, and the writes after it go on (it must not hold them for ever).
        report.refused++;
        const body = { code: 'PAYLOAD_TOO_LARGE', message: 'This change is too large to send to the team server. Make it smaller (shorter notes, say) and save it again.' };
        await sql.transaction((db) => refuse(db, batch[0]!.request_id, { status: 413, body, refreshed: false }));
        continue;
      }
      if (res.status !== 200) throw new Error(`The server refused the push (${res.status}): ${await res.text()}`);
      answers = syncPushSchema.parse(await res.json()).answers;
    } catch (error) {
      // Out of reach (or an answer that was no push's answer): nothing more this sync.
      report.offline = true;
      report.error = error instanceof Error ? error.message : String(error);
      return false;
    }
    // A write the server ran, whose answer was lost, and that it no longer remembers (its request
    // log keeps answers a day): sent again, it is refused (its id taken, its record changed: by
    // itself). Its effect on the server says it ran: taken as run, not as a refusal.
    for (let i = 0; i < answers.length; i++) {
      const answer = answers[i]!;
      const row = batch.find((r) => r.request_id === answer.request_id);
      if (!row || (answer.status !== 409 && answer.status !== 412)) continue;
      const ran = await ranAlready(server, row, answer.status).catch(() => undefined);
      if (ran) answers[i] = { request_id: answer.request_id, status: 200, body: ran, replayed: true };
    }
    // An edit refused because the record changed on the server (412) is merged when the two
    // changed different fields: sent again over the server's version, with its own fields only.
    for (let i = 0; i < answers.length; i++) {
      const answer = answers[i]!;
      const row = batch.find((r) => r.request_id === answer.request_id);
      if (answer.status !== 412 || !row?.base || row.body === null) continue;
      const merged = await mergeEdit(server, row).catch(() => undefined);
      if (merged) {
        answers[i] = { ...merged, request_id: answer.request_id };
        report.merged++;
      }
    }
    const stop = await sql.transaction(async (db) => {
      // A write the server failed (5xx) waits, and the ones after it in this push that ran are
      // kept as run: the server ran each on its own. After `failuresBeforeSetAside` failures in a
      // row it is set aside (a notice with a retry) and no longer holds the others.
      let failed = false;
      for (const answer of answers) {
        if (answer.status >= 500) {
          if (await countFailure(db, answer.request_id, answer.status)) report.refused++;
          else failed = true;
          continue;
        }
        if (answer.status < 400) {
          report.pushed++;
          // Kept, as run, until the copy has the server's version: the writes made over the version
          // this one made take the version the server gave it, now and until then.
          const version = (answer.body as { modified_dt?: unknown } | null)?.modified_dt;
          await db.run('UPDATE sync_outbox SET confirmed = ? WHERE request_id = ?', [typeof version === 'number' ? version : 0, answer.request_id]);
          await pullAgainFrom(db, answer.request_id, typeof version === 'number' ? version : undefined);
          if (typeof version === 'number') await db.run('UPDATE sync_outbox SET if_match = ?, after_request = NULL WHERE after_request = ?', [etagOf(version), answer.request_id]);
        } else {
          report.refused++;
          await refuse(db, answer.request_id, { status: answer.status, body: answer.body, refreshed: false });
        }
      }
      return failed;
    });
    if (stop) {
      report.offline = true;
      report.error = 'The server could not run a write; it is sent again later.';
      return true;
    }
  }
}

/** Two field values alike as JSON (missing and null alike). */
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A job's one-click status move (`POST /jobs/:id/move`), by its path. */
const isMove = (method: string, path: string) => method === 'POST' && /^\/jobs\/[^/]+\/move$/.test(path);

/** The fields of `body` that an edit changed from the record it started from. */
const changedFields = (body: Record<string, unknown>, base: Record<string, unknown>) => Object.keys(body).filter((f) => !same(body[f], base[f]));

/**
 * Whether a write refused when sent again had in fact run before (its answer lost, and forgotten
 * by the server since): a create whose record (by the id this device gave it, which no other
 * device can give) is on the server; an edit whose record has, in every field it changed, the
 * value it set; a job's move whose job is at the status it moved to. Answers the record as the
 * server has it, else undefined. (Someone else's change of the same fields since makes it a
 * conflict, as it would be anyway.)
 */
async function ranAlready(server: SyncServer, row: OutboxRow, status: number): Promise<unknown> {
  const path = row.path.split('?')[0] as string;
  const read = async (at: string) => {
    const res = await server(at);
    return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
  };
  if (status === 409 && row.method === 'POST' && /^\/(customers|jobs|invoices)$/.test(path)) {
    const kind = path.slice(1) as IdTable;
    const id = (JSON.parse(row.ids) as Partial<Record<IdTable, string[]>>)[kind]?.[0];
    return id === undefined ? undefined : read(`${path}/${encodeURIComponent(id)}`);
  }
  if (status !== 412 || row.body === null) return undefined;
  const body = JSON.parse(row.body) as Record<string, unknown>;
  if (isMove(row.method, path)) {
    const job = await read(path.replace(/\/move$/, ''));
    return job && same(job.status, body.status) ? job : undefined;
  }
  if ((row.method === 'PUT' || row.method === 'PATCH') && row.base) {
    const base = JSON.parse(row.base) as Record<string, unknown>;
    const mine = changedFields(body, base);
    if (mine.length === 0) return undefined;
    const now = await read(path);
    return now && mine.every((f) => same(now[f], body[f])) ? now : undefined;
  }
  return undefined;
}

/** Whether the server answers a read now (its business settings): it is up, and reachable. */
async function serverAnswers(server: SyncServer): Promise<boolean> {
  try {
    const res = await server('/settings/business');
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * An edit of one record that the server refused because another device changed the record
 * meanwhile (412), merged when that is safe: when the fields this edit changed (its body against
 * the record it started from) and those changed on the server (the record now against the same
 * start) are different ones, the edit is sent again over the server's version with the server's
 * values for the fields it did not change. A job's status move is sent again when the job's
 * status is still the one it moved from (whatever else changed). Undefined (a notice, as before)
 * when both changed a field (or the status), or the merge is refused too.
 */
async function mergeEdit(server: SyncServer, row: OutboxRow): Promise<SyncAnswer | undefined> {
  const base = JSON.parse(row.base as string) as Record<string, unknown>;
  const body = JSON.parse(row.body as string) as Record<string, unknown>;
  const path = row.path.split('?')[0] as string;
  const move = isMove(row.method, path);
  const res = await server(move ? path.replace(/\/move$/, '') : path);
  if (res.status !== 200) return undefined;
  const now = (await res.json()) as Record<string, unknown>;
  if (typeof now.modified_dt !== 'number') return undefined;
  let merged: Record<string, unknown>;
  if (move) {
    // A status move conflicts only with another status change: the job's price or notes changed
    // elsewhere, the move still applies, over the server's version.
    if (!same(now.status, base.status)) return undefined;
    merged = body;
  } else {
    const fields = Object.keys(body);
    const mine = changedFields(body, base);
    const theirs = fields.filter((f) => !same(now[f], base[f]));
    if (mine.length === 0 || mine.some((f) => theirs.includes(f))) return undefined;
    merged = Object.fromEntries(fields.map((f) => [f, mine.includes(f) ? body[f] : now[f]]));
  }
  const write: SyncWrite = { request_id: `${row.request_id}.merged`.slice(0, 100), method: row.method, path: row.path, body: merged, if_match: etagOf(now.modified_dt) };
  const pushed = await server('/sync/push', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ writes: [write] }) });
  if (pushed.status !== 200) return undefined;
  const answer = syncPushSchema.parse(await pushed.json()).answers[0];
  return answer && answer.status < 400 ? answer : undefined;
}

/** The records a refused write touched, as the server has them now (or gone), in place of what it did here. */
async function refreshRefused(sql: SqlStore, server: SyncServer, publish: (event: ChangeEvent) => void): Promise<void> {
  const rows = await sql.transaction((db) => db.all<{ request_id: string; touched: string; refused: string }>('SELECT request_id, touched, refused FROM sync_outbox WHERE refused IS NOT NULL'), {
    readOnly: true,
  });
  for (const row of rows) {
    const refused = JSON.parse(row.refused) as { refreshed?: boolean };
    if (refused.refreshed) continue;
    const touched = JSON.parse(row.touched) as ChangeEvent[];
    const records = emptyPull();
    for (const event of touched) {
      const kind = ({ customer: 'customers', job: 'jobs', invoice: 'invoices' } as const)[event.entity as 'customer' | 'job' | 'invoice'];
      if (!kind) continue;
      for (const id of event.ids) {
        const res = await server(`/${kind}/${encodeURIComponent(id)}`);
        if (res.status === 404) records.deleted[kind].push(id);
        else if (res.status === 200) (records.records[kind] as unknown[]).push(await res.json());
        else throw new Error(`The server answered ${res.status} for ${kind} ${id}.`);
        // A customer's notes and addresses change under a customer event too.
        if (kind === 'customers' && res.status === 200) {
          const details = await server(`/customers/${encodeURIComponent(id)}/details`);
          if (details.status === 200) records.records.customer_details.push((await details.json()) as SyncPull['records']['customer_details'][number]);
        }
      }
    }
    await sql.transaction(async (db) => {
      await applyPull(db, records);
      await db.run('UPDATE sync_outbox SET refused = ? WHERE request_id = ?', [JSON.stringify({ ...refused, refreshed: true }), row.request_id]);
    });
    for (const event of eventsOf(records)) publish(event);
  }
}

const emptyPull = (): SyncPull => ({
  epoch: '',
  position: 0,
  reset: false,
  records: { customers: [], customer_details: [], jobs: [], invoices: [], settings: [] },
  deleted: { customers: [], jobs: [], invoices: [] },
  next: null,
});

/**
 * Pulls every page since the device's position, or from the page a pull cut short stopped at (a
 * first sync continues where it was). The server's changes go in while this device's own writes
 * wait, but not to the records those writes touched (their own answer, or their refusal, brings
 * the server's version of those: `refuse` moves the position back to where the write was made),
 * nor a record whose customer is not in the copy (a waiting delete; or a customer made after a
 * first sync's pages of customers, whose records then come with the next pull, from the position
 * the first sync names). Only a page that replaces the whole copy (a first sync's first page,
 * another epoch) waits for nothing to be waiting.
 */
async function pullAll(
  sql: SqlStore,
  store: Database,
  server: SyncServer,
  publish: (event: ChangeEvent) => void,
  report: SyncReport,
  versions: { serverSchema: number },
): Promise<void> {
  const at = await sql.transaction(
    (db) => db.get<{ epoch: string | null; position: number | null; pull_page: string | null }>('SELECT epoch, position, pull_page FROM sync_device WHERE k = 1'),
    { readOnly: true },
  );
  const query: Record<string, unknown> = at?.pull_page
    ? { page: at.pull_page }
    : at?.epoch && at.position !== null && at.position !== undefined
      ? { epoch: at.epoch, since: Number(at.position) }
      : {};
  // A first sync that goes on from a page: the copy is still being made (its screens learn of it at the end).
  let reset = false;
  let whole = typeof query.page === 'string' && query.page.startsWith('s.');
  const ask = (q: Record<string, unknown>) => server(`/sync/pull?filterJson=${encodeURIComponent(JSON.stringify(q))}`);
  let asked = ask(query);
  for (;;) {
    const res = await asked;
    if (res.status === 400 && query.page !== undefined) {
      // A page this server no longer knows (another server, a token from an older one): from the position.
      await sql.transaction((db) => db.run('UPDATE sync_device SET pull_page = NULL WHERE k = 1'));
      report.offline = true;
      report.error = 'The server did not know where the last pull stopped; the next sync starts again from the last position.';
      return;
    }
    if (res.status !== 200) {
      report.offline = true;
      report.error ??= `The server answered ${res.status} to a pull.`;
      return;
    }
    const page = syncPullSchema.parse(await res.json());
    if (page.schema !== undefined) versions.serverSchema = page.schema;
    reset ||= page.reset;
    whole ||= page.reset;
    // The next page is asked for while this one goes in (a pull has no side effects: one not used
    // when this page is held is simply dropped).
    if (page.next !== null) {
      asked = ask({ page: page.next });
      asked.catch(() => undefined);
    }
    const applied = await sql.transaction(async (db) => {
      const pending = await pendingRecords(db);
      if (page.reset && pending.waiting > 0) return false;
      if (page.reset) await clearCopy(db);
      // A whole new copy comes in pages, into tables emptied by its first: rows are only added.
      await applyPull(db, await withoutPending(db, page, pending), reset ? savepointsOnly(store) : undefined);
      // The copy now has the server's version of every write it ran.
      if (page.next === null) await db.run('DELETE FROM sync_outbox WHERE confirmed IS NOT NULL');
      // Where to go on if the pull is cut short (a write, a reload, a lost connection): the next
      // page. The position counts once the last page is in.
      await db.run('UPDATE sync_device SET pull_page = ? WHERE k = 1', [page.next]);
      if (page.next === null) await db.run('UPDATE sync_device SET epoch = ?, position = ? WHERE k = 1', [page.epoch, page.position]);
      return true;
    });
    if (!applied) {
      report.held = true;
      return;
    }
    report.pulled += page.records.customers.length + page.records.jobs.length + page.records.invoices.length + page.records.settings.length;
    if (!whole) for (const event of eventsOf(page)) publish(event);
    if (page.next === null) break;
  }
  if (whole) publish({ entity: 'database', kind: 'reset', ids: [] });
}

/** The records this device's waiting writes touched (not yet run on the server, nor refused). */
interface PendingRecords {
  waiting: number;
  customer: Set<string>;
  job: Set<string>;
  invoice: Set<string>;
  settings: boolean;
}

async function pendingRecords(db: SqlClient): Promise<PendingRecords> {
  const rows = await db.all<{ touched: string }>('SELECT touched FROM sync_outbox WHERE refused IS NULL AND confirmed IS NULL');
  const pending: PendingRecords = { waiting: rows.length, customer: new Set(), job: new Set(), invoice: new Set(), settings: false };
  for (const row of rows) {
    for (const event of JSON.parse(row.touched) as ChangeEvent[]) {
      if (event.entity === 'settings') pending.settings = true;
      else if (event.entity === 'customer' || event.entity === 'job' || event.entity === 'invoice') for (const id of event.ids) pending[event.entity].add(String(id));
    }
  }
  return pending;
}

/**
 * A page without what the device's waiting writes touched, nor a record whose customer is neither
 * in the copy nor in the page (deleted here by a waiting write).
 */
async function withoutPending(db: SqlClient, page: SyncPull, pending: PendingRecords): Promise<SyncPull> {
  const customers = page.records.customers.filter((c) => !pending.customer.has(c.id));
  const arriving = new Set(customers.map((c) => c.id));
  const present = new Set<string>();
  const parents = [...new Set([...page.records.jobs.map((j) => j.customer_id), ...page.records.invoices.map((i) => i.customer_id), ...page.records.customer_details.map((d) => d.customer_id)])];
  if (parents.length) {
    const found = await db.all<{ id: number }>(`SELECT id FROM customers WHERE id IN (${db.dialect.jsonIntegers})`, [JSON.stringify(parents.map(Number))]);
    for (const row of found) present.add(String(row.id));
  }
  const hasParent = (customerId: string) => arriving.has(customerId) || present.has(customerId);
  return {
    ...page,
    records: {
      customers,
      customer_details: page.records.customer_details.filter((d) => !pending.customer.has(d.customer_id) && hasParent(d.customer_id)),
      jobs: page.records.jobs.filter((j) => !pending.job.has(j.id) && hasParent(j.customer_id)),
      invoices: page.records.invoices.filter((i) => !pending.invoice.has(i.id) && hasParent(i.customer_id)),
      settings: pending.settings ? [] : page.records.settings,
    },
    deleted: {
      customers: page.deleted.customers.filter((id) => !pending.customer.has(id)),
      jobs: page.deleted.jobs.filter((id) => !pending.job.has(id)),
      invoices: page.deleted.invoices.filter((id) => !pending.invoice.has(id)),
    },
  };
}

/** The change events of what a pull put in the copy, for the screens that show it. */
function eventsOf(page: SyncPull): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  const add = (entity: ChangeEvent['entity'], kind: ChangeEvent['kind'], ids: string[]) => {
    if (ids.length) events.push({ entity, kind, ids });
  };
  add('customer', 'updated', [...new Set([...page.records.customers.map((c) => c.id), ...page.records.customer_details.map((d) => d.customer_id)])]);
  add('job', 'updated', page.records.jobs.map((j) => j.id));
  add('invoice', 'updated', page.records.invoices.map((i) => i.id));
  add('customer', 'deleted', page.deleted.customers);
  add('job', 'deleted', page.deleted.jobs);
  if (page.records.settings.length) events.push({ entity: 'settings', kind: 'updated', ids: [] });
  return events;
}

/** Empties the copy before a whole new one comes in (a first sync, another epoch). */
async function clearCopy(db: SqlClient): Promise<void> {
  for (const table of ['payments', 'invoice_jobs', 'invoices', 'job_moves', 'jobs', 'customer_details', 'customers']) await db.run(`DELETE FROM ${table}`);
}

/** Puts the records of a pull in the copy as they are on the server, and takes out those gone. */
async function applyPull(db: SqlClient, page: Pick<SyncPull, 'records' | 'deleted'>, fresh?: Database): Promise<void> {
  if (fresh && page.records.customers.length + page.records.jobs.length > 0) {
    // Customers and jobs with their triggers' work done set-based (bulkLoad): a first sync of
    // 100 000 customers would otherwise run a dozen trigger programs per row.
    // Their indexes stay: built again on every page, they would cost more the more pages came in.
    bulkLoad(
      fresh,
      () => {
        for (const row of page.records.customers.map(customerRow)) insertRow(fresh, 'customers', row);
        for (const row of page.records.jobs.map(jobRow)) insertRow(fresh, 'jobs', row);
      },
      { keepIndexes: true },
    );
  } else {
    for (const customer of page.records.customers) await put(db, 'customers', 'id', customerRow(customer));
    for (const job of page.records.jobs) await put(db, 'jobs', 'id', jobRow(job));
  }
  for (const details of page.records.customer_details) await putDetails(db, details);
  // An invoice number is unique: one a pulled invoice has may still be held here by another
  // invoice (a device's number, before the server gave it its own), which this pull renumbers too.
  if (page.records.invoices.length) {
    const ids = JSON.stringify(page.records.invoices.map((i) => Number(i.id)));
    const numbers = JSON.stringify(page.records.invoices.map((i) => i.number));
    await db.run(
      `UPDATE invoices SET number = -id WHERE number IN (${db.dialect.jsonIntegers}) AND id NOT IN (${db.dialect.jsonIntegers})`,
      [numbers, ids],
    );
  }
  for (const invoice of page.records.invoices) await putInvoice(db, invoice);
  // Issuing moves the server's next number without a settings change: the next one made here
  // must not take a number the copy already has.
  if (page.records.invoices.length) {
    await db.run('UPDATE business_settings SET next_invoice_number = max(next_invoice_number, (SELECT coalesce(max(number), 0) + 1 FROM invoices)) WHERE k = 1');
  }
  for (const settings of page.records.settings) {
    await db.run(
      `UPDATE business_settings SET name = ?, address = ?, tax_number = ?, invoice_prefix = ?, default_tax_rate_bp = ?, payment_terms_days = ?,
         next_invoice_number = ?, modified_dt = ? WHERE k = 1`,
      [settings.name, settings.address, settings.tax_number, settings.invoice_prefix, settings.default_tax_rate_bp, settings.payment_terms_days, settings.next_invoice_number, settings.modified_dt],
    );
  }
  for (const id of page.deleted.jobs) await deleteJob(db, Number(id));
  for (const id of page.deleted.customers) {
    await db.run('DELETE FROM jobs WHERE customer_id = ?', [Number(id)]);
    await deleteCustomer(db, Number(id));
  }
}

type Row = { columns: string[]; values: SqlValue[] };

const customerRow = (c: Customer): Row => ({
  columns: ['id', 'full_name', 'phone', 'email', 'created_dt', 'modified_dt', 'archived_dt'],
  values: [Number(c.id), c.full_name, c.phone, c.email, c.created_dt, c.modified_dt, c.archived_dt ?? null],
});

/** Inserts a row (synchronously, on the store itself: inside a bulk load). */
function insertRow(store: Database, table: string, { columns, values }: Row): void {
  store.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, values);
}

/**
 * Writes a row as given: an UPDATE, else an INSERT. Not an upsert: SQLite lets an upsert's conflict
 * handling override the `INSERT OR IGNORE` of the triggers that keep counts, which then fail.
 */
async function put(db: SqlClient, table: string, key: string, { columns, values }: Row): Promise<void> {
  const keyAt = columns.indexOf(key);
  const set = columns.filter((c) => c !== key);
  const updated = await db.run(`UPDATE ${table} SET ${set.map((c) => `${c} = ?`).join(', ')} WHERE ${key} = ?`, [
    ...values.filter((_, i) => i !== keyAt),
    values[keyAt] as SqlValue,
  ]);
  if (updated.changes === 0) await db.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, values);
}

async function putDetails(db: SqlClient, d: CustomerDetails): Promise<void> {
  await put(db, 'customer_details', 'customer_id', {
    columns: ['customer_id', 'notes', 'addresses_json', 'modified_dt'],
    values: [Number(d.customer_id), d.notes, JSON.stringify(d.addresses), d.modified_dt],
  });
}

const statusColumns = jobStatuses.map((s) => `${s}_dt`);

const jobRow = (j: Job): Row => ({
  columns: ['id', 'customer_id', 'title', 'description', 'service_address', 'status', 'assignee', 'scheduled_start_dt', 'scheduled_end_dt', 'price_cents', 'created_dt', 'modified_dt', 'archived_dt', ...statusColumns],
  values: [
    Number(j.id), Number(j.customer_id), j.title, j.description, j.service_address, j.status, j.assignee, j.scheduled_start_dt, j.scheduled_end_dt, j.price_cents,
    j.created_dt, j.modified_dt, j.archived_dt ?? null, ...jobStatuses.map((s) => j.status_dates[s] ?? null),
  ],
});

async function putInvoice(db: SqlClient, i: Invoice): Promise<void> {
  const prefix = i.reference.slice(0, Math.max(0, i.reference.length - String(i.number).padStart(4, '0').length));
  const columns = ['id', 'number', 'prefix', 'customer_id', 'issue_date', 'due_date', 'lines_json', 'subtotal_cents', 'discount_cents', 'tax_cents', 'total_cents', 'paid_cents',
    'balance_cents', 'job_count', 'note', 'currency', 'seller_name', 'seller_address', 'seller_tax_number', 'created_dt', 'modified_dt', 'voided_dt'];
  const values = [
    Number(i.id), i.number, prefix, Number(i.customer_id), i.issue_date, i.due_date, JSON.stringify(i.lines), i.subtotal_cents, i.discount_cents, i.tax_cents, i.total_cents,
    i.paid_cents, i.balance_cents, i.job_ids.length, i.note, i.currency, i.seller.name, i.seller.address, i.seller.tax_number, i.created_dt, i.modified_dt, i.voided_dt,
  ];
  await put(db, 'invoices', 'id', { columns, values });
  await db.run('DELETE FROM invoice_jobs WHERE invoice_id = ?', [Number(i.id)]);
  for (const jobId of i.job_ids) await db.run('INSERT INTO invoice_jobs (invoice_id, job_id) VALUES (?, ?)', [Number(i.id), Number(jobId)]);
  await db.run('DELETE FROM payments WHERE invoice_id = ?', [Number(i.id)]);
  for (const p of i.payments) {
    await db.run('INSERT INTO payments (id, invoice_id, amount_cents, paid_on, method, note, created_dt) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      Number(p.id), Number(i.id), p.amount_cents, p.paid_on, p.method, p.note, p.created_dt,
    ]);
  }
}
