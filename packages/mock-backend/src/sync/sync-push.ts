// A push (issue 40, decision 0163): a device's writes, run in order, each as the same request over
// HTTP would run, each at most once (its request id).
import { apiBasePath, matchRoute, requestIdHeader, syncPushInputSchema, syncRoutes, type SyncAnswer, type SyncWrite } from '@otto/api-contract';
import { toApiIssues } from '../runtime/api-error';
import { latestSchemaVersion } from '../database/migrations';
import { recordIdsHeader } from './record-ids';
import { errorResponse, jsonResponse } from '../runtime/responses';

/** The header a backend sets on a write's answer that it replayed from its request log. */
export const replayedHeader = 'x-otto-replayed';

const pushPath = `${apiBasePath}${syncRoutes.push.path}`;

/**
 * Wraps a backend's `fetch` with the push call: `POST /api/sync/push` is answered here by sending
 * each write to `answer` as its own request (routing, shape checks, scenarios, If-Match, request id
 * and transaction are all the write's own, as over HTTP); every other request goes to `answer`.
 * @example
 * const fetchWithSync = withSyncPush(answer);
 */
export function withSyncPush(answer: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = URL.canParse(request.url) ? new URL(request.url) : undefined;
    if (!url || url.pathname !== pushPath || request.method.toUpperCase() !== 'POST') return answer(request);
    let parsed: unknown;
    try {
      const text = await request.text();
      if (text.length > (syncRoutes.push.maxBodyBytes ?? 0)) {
        return errorResponse(413, { code: 'PAYLOAD_TOO_LARGE', message: `A push is at most ${syncRoutes.push.maxBodyBytes} bytes. Send fewer writes at once.` });
      }
      parsed = JSON.parse(text);
    } catch {
      return errorResponse(400, { code: 'INVALID_JSON', message: 'The push is not valid JSON: send { "writes": [ … ] }.' });
    }
    const shape = syncPushInputSchema.safeParse(parsed);
    if (!shape.success) return errorResponse(400, { code: 'VALIDATION_FAILED', message: 'Some fields need attention.', issues: toApiIssues(shape.error.issues) });
    // A device on an older Otto than this data: its writes could erase what it does not know.
    if (shape.data.schema !== undefined && shape.data.schema < latestSchemaVersion) {
      return errorResponse(409, {
        code: 'UPDATE_REQUIRED',
        message: `This device runs an older Otto (data version ${shape.data.schema}; the team server's is ${latestSchemaVersion}). Update Otto on this device (reload the page), then its changes are sent: they wait on the device until then.`,
      });
    }
    const answers: SyncAnswer[] = [];
    for (const write of shape.data.writes) answers.push(await runWrite(answer, url.origin, request.headers, write));
    return jsonResponse({ answers });
  };
}

async function runWrite(answer: (request: Request) => Promise<Response>, origin: string, outer: Headers, write: SyncWrite): Promise<SyncAnswer> {
  const refused = (status: number, code: string, message: string): SyncAnswer => ({ request_id: write.request_id, status, body: { code, message }, replayed: false });
  const path = write.path.split('?')[0] as string;
  // A device's write is one of the API's own writes: never a push (it would nest) nor a control call.
  const match = matchRoute(write.method, path);
  if (match.kind !== 'match' || match.route === syncRoutes.push) return refused(404, 'NOT_FOUND', `${write.method} ${write.path} is not a write of the API.`);
  const headers = new Headers({ [requestIdHeader]: write.request_id });
  if (write.body !== undefined) headers.set('content-type', 'application/json');
  if (write.if_match !== undefined) headers.set('if-match', write.if_match);
  if (write.ids !== undefined) headers.set(recordIdsHeader, JSON.stringify(write.ids));
  // What says who is asking goes with each write, as over HTTP.
  for (const name of ['authorization', 'origin']) {
    const value = outer.get(name);
    if (value !== null) headers.set(name, value);
  }
  const response = await answer(
    new Request(`${origin}${apiBasePath}${write.path}`, { method: write.method, headers, ...(write.body !== undefined ? { body: JSON.stringify(write.body) } : {}) }),
  );
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // A plain-text answer (the spec's 404) stays text.
  }
  return { request_id: write.request_id, status: response.status, body, replayed: response.headers.get(replayedHeader) === 'true' };
}
