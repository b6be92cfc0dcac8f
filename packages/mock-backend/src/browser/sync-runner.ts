// Sync mode in the DB worker (issue 40, decision 0163): when to sync the device's copy with its team
// server, and what the tabs are told about it.
import type { ChangeEvent } from '@otto/api-contract';
import type { Logger } from '../logger';
import { createDeviceSync, makeDevice } from '../sync/device-sync';
import type { MockApi } from '../types';
import { syncChannelName, type SyncMessage, type SyncStatus } from './sync-channel';

/**
 * The team server a device syncs with.
 * @example
 * const sync: SyncSettings = { serverUrl: 'https://otto.example.com/api', token: 's3cret' };
 */
export interface SyncSettings {
  /** The server's API base URL, `/api` included. */
  serverUrl: string;
  /** Its bearer token, when it wants one. */
  token?: string;
  /**
   * How often the device asks for changes when nothing happens here.
   * @default 1000
   */
  pullEveryMs?: number;
}

/**
 * Runs a device's sync while `api` is open: at once, a moment after each write made here, every
 * `pullEveryMs`, and when the browser says it is online again; one sync at a time. The tabs hear how
 * it stands on the `otto-sync` channel and the records it took in on the change feed (`publish`).
 * @example
 * const runner = await startSyncRunner({ api, settings, publish: changes.publish, logger });
 * runner.stop();
 */
export async function startSyncRunner({ api, settings, publish, logger }: { api: MockApi; settings: SyncSettings; publish: (event: ChangeEvent) => void; logger: Logger }) {
  await makeDevice(api.store);
  const base = settings.serverUrl.replace(/\/+$/, '');
  const device = createDeviceSync({
    store: api.store,
    publish,
    server: (path, init) =>
      fetch(`${base}${path}`, {
        ...init,
        cache: 'no-store',
        headers: { ...(init?.headers as Record<string, string> | undefined), ...(settings.token ? { authorization: `Bearer ${settings.token}` } : {}) },
      }),
  });
  const channel = new BroadcastChannel(syncChannelName);
  const status: SyncStatus = {
    waiting: 0,
    waitingList: [],
    notices: [],
    lastSyncedAt: null,
    offlineSince: null,
    problem: null,
    firstSync: true,
    pulled: 0,
    syncing: false,
    updateRequired: false,
  };
  let stopped = false;
  let again = false;
  let running: Promise<void> | undefined;

  const tell = async () => {
    const state = await device.state();
    status.waiting = state.waiting;
    status.waitingList = state.waitingList;
    status.notices = state.notices;
    status.firstSync = state.position === undefined;
    channel.postMessage({ type: 'sync-state', state: status } satisfies SyncMessage);
  };

  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        status.syncing = true;
        status.pulled = 0;
        await tell();
        const report = await device.sync();
        status.syncing = false;
        status.pulled = report.pulled;
        status.updateRequired = report.updateRequired === true;
        if (report.offline) {
          status.offlineSince ??= Date.now();
          status.problem = report.error ?? 'The team server could not be reached.';
        } else {
          status.offlineSince = null;
          status.problem = null;
          status.lastSyncedAt = Date.now();
        }
        if (report.refused) logger.warn(`The team server refused ${report.refused} change(s) made on this device; they are listed as notices.`);
        await tell();
      } while (again && !stopped);
    })()
      .catch((error: unknown) => logger.error('Sync failed', error))
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  let soon: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = api.onChange(() => {
    clearTimeout(soon);
    soon = setTimeout(() => void run(), 150);
  });
  const timer = setInterval(() => void run(), settings.pullEveryMs ?? 1_000);
  const online = () => void run();
  globalThis.addEventListener?.('online', online);
  channel.onmessage = (event: MessageEvent<SyncMessage>) => {
    const message = event.data;
    if (message?.type === 'sync-dismiss') void device.dismiss(message.requestId).then(tell);
    else if (message?.type === 'sync-retry') void device.retry(message.requestId).then(() => run());
    else if (message?.type === 'sync-now') void run();
  };
  const answer = (status: number, code: string, message: string) =>
    new Response(JSON.stringify({ code, message }), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
  void run();
  return {
    /**
     * An import (or its undo) on a device: run by the team server itself, once what waits here has
     * reached it (an import's jobs may name customers made here); what it made comes down with the
     * next pull. Refused in words while offline or while changes still wait.
     */
    async forward(request: Request): Promise<Response> {
      await run();
      const waiting = (await device.state()).waiting;
      if (waiting > 0) {
        return answer(409, 'CONFLICT', `${waiting} change${waiting === 1 ? '' : 's'} made on this device ${waiting === 1 ? 'is' : 'are'} still waiting to reach the team server, and the import may need them. Import once this device says Synced.`);
      }
      const url = new URL(request.url);
      let res: Response;
      try {
        res = await fetch(`${base}${url.pathname.replace(/^\/api/, '')}${url.search}`, {
          method: request.method,
          cache: 'no-store',
          headers: { 'content-type': 'application/json', ...(settings.token ? { authorization: `Bearer ${settings.token}` } : {}) },
          ...(request.method === 'GET' ? {} : { body: await request.arrayBuffer() }),
        });
      } catch {
        return answer(503, 'SERVICE_UNAVAILABLE', 'Imports are made on the team server, which cannot be reached now. Try again when this device is online; nothing was imported.');
      }
      const body = await res.arrayBuffer();
      void run();
      return new Response(body, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/json; charset=utf-8' } });
    },
    /** Stops syncing (the database is closing). */
    stop() {
      stopped = true;
      clearTimeout(soon);
      clearInterval(timer);
      unsubscribe();
      globalThis.removeEventListener?.('online', online);
      channel.close();
    },
  };
}
