// The DB worker's API requests: answered one at a time from the current database, refused from an outdated build, let finish before a stop.
import { answerWithOverride, apiPathOf, controlPathPrefix, type Scenarios } from '../runtime/scenarios';
import type { MockApi } from '../types';
import { dataStampHeader, type DataStamp } from './data-stamp';
import {
  appVersionHeader,
  deserializeRequest,
  deserializeResponse,
  errorMessage,
  isLongRunningRequest,
  movedAnswer,
  networkErrorAnswer,
  relayErrorSerialized,
  serializeResponse,
  type SerializedRequest,
  type SerializedResponse,
} from './protocol';
import type { ServeMockApiInWorkerOptions } from './types';

/** What the request queue works with: `current` gives the database of the moment. */
export interface WorkerRequestQueueContext {
  current: () => Promise<MockApi>;
  stamp: DataStamp | undefined;
  filesLocked: Promise<() => void>;
  options: ServeMockApiInWorkerOptions;
  /** The scenario in force, applied before a request waits in line (a delay holds up no other request). */
  scenarios: Scenarios;
}

/** `serveRequest` answers one API request (never rejects); `stop` lets those in flight finish and closes the database. */
export function workerRequestQueue({ current, stamp, filesLocked, options, scenarios }: WorkerRequestQueueContext) {
  /** Requests being answered, so that `stop` can let them finish. */
  const inFlight = new Set<Promise<unknown>>();
  /** The last request in line (answers never reject). */
  let queue: Promise<unknown> = Promise.resolve();
  let stopping = false;

  /** Answers one API request, as the scenario in force says; never rejects. */
  async function serveRequest(request: SerializedRequest): Promise<SerializedResponse> {
    try {
      await scenarios.ready;
      const path = apiPathOf(request.url);
      if (path === `${controlPathPrefix}scenario`) {
        // A worker handing over takes no new scenario: the next owner would not see it.
        if (stopping) return movedAnswer;
        return await serializeAnswer(await (scenarios.control(deserializeRequest(request), path) as Promise<Response>));
      }
      const override = path === undefined || path.startsWith(controlPathPrefix) ? undefined : scenarios.take(request.method, path);
      if (!override) return await serveInLine(request);
      return await serializeAnswer(await answerWithOverride(override, async () => deserializeResponse(await serveInLine(request))));
    } catch (error) {
      return relayErrorSerialized(503, 'SERVICE_UNAVAILABLE', errorMessage(error));
    }
  }

  /** An answer on the wire; a dropped connection as its marked form (`networkErrorAnswer`). */
  function serializeAnswer(response: Response): Promise<SerializedResponse> | SerializedResponse {
    return response.type === 'error' ? networkErrorAnswer() : serializeResponse(response);
  }

  /** Answers one API request from the database, in line with the others; never rejects. */
  function serveInLine(request: SerializedRequest): Promise<SerializedResponse> {
    if (stopping) return Promise.resolve(movedAnswer);
    const outdated = refuseOutdated(request);
    if (outdated) return Promise.resolve(outdated);
    const answer = () =>
      current()
        .then(async (api) => {
          const read = request.method === 'GET' || request.method === 'HEAD';
          // Before a write changes anything, what was kept from earlier answers stops being trusted.
          if (!read) await stamp?.invalidate();
          // A read is stamped only when nothing was invalidated while it ran (a restore, say).
          const since = stamp?.epoch();
          const response = await api.fetch(deserializeRequest(request));
          // A write is answered once it is kept (a no-op on OPFS, where the commit is the file).
          if (!read) await api.store.flush?.();
          const serialized = await serializeResponse(response);
          if (read) {
            const current = stamp?.current(since);
            if (current) serialized.headers.push([dataStampHeader, current]);
          } else {
            // Again once it is done: a read beside a long-running import may have made a new stamp.
            await stamp?.invalidate();
          }
          return serialized;
        })
        .catch((error: unknown) => relayErrorSerialized(503, 'SERVICE_UNAVAILABLE', errorMessage(error)));
    // One request at a time, first come first answered: run side by side, a burst of 200 writes
    // would each wait at every await for all the others and be answered together at the end,
    // long after the first was done (and past the relays' time limits on a slow machine). An
    // import of many rows runs beside the queue, so that the app stays usable during it.
    let work: Promise<SerializedResponse>;
    if (isLongRunningRequest(request.method, request.url)) work = answer();
    else queue = work = queue.then(answer);
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return work;
  }

  /** A write from a build older than this one: the database may already have moved on (issue: one version owns it). */
  function refuseOutdated(request: SerializedRequest): SerializedResponse | undefined {
    if (!options.appVersion || request.method === 'GET' || request.method === 'HEAD') return undefined;
    const sender = request.headers.find(([name]) => name.toLowerCase() === appVersionHeader)?.[1];
    if (!sender || sender >= options.appVersion) return undefined;
    const body = new TextEncoder().encode(
      JSON.stringify({ code: 'APP_OUTDATED', message: 'Otto was updated in another tab. Reload to continue.' }),
    ).buffer as ArrayBuffer;
    return { status: 409, statusText: 'Conflict', headers: [['content-type', 'application/json; charset=utf-8']], body };
  }

  /** Lets what is in flight finish, then closes the database so that the next owner can open it. */
  async function stop(): Promise<void> {
    stopping = true;
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    const api = await current().catch(() => undefined);
    await api?.close();
    await api?.store.close();
    // The next owner reads the stamp once it holds the files: finish with it first, but never
    // keep the files from it for long (a closing page's cache may not answer); its first write
    // removes whatever stamp is there anyway.
    await Promise.race([stamp?.idle(), new Promise((resolve) => setTimeout(resolve, 250))]);
    // The files are free: the next owner need not wait for this worker to end (WebKit ends the
    // worker of a page that was left only seconds later).
    (await filesLocked)();
  }
  return { serveRequest, stop };
}
