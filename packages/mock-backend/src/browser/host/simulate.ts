// A deterministic, seeded simulator of the browser host. It runs the real cores (sw-core.ts,
// tab-core.ts) with simulated tabs, a service worker that the browser restarts, DB workers, Web
// Locks, a clock, message delays and reordering, tab crashes, page hides, version updates and OPFS
// errors, and checks the host's invariants after every step (see `check` and decision 0012).
// The same seed always gives the same schedule: a failing seed replays.
import { filesWaitMs, longRequestMs, ownerWaitMs, silenceMs } from './budgets';
import { createSwState, swStep as realSwStep, type PortId, type SwEffect, type SwEvent } from './sw-core';
import { createTabState, tabHello, tabStep as realTabStep, type TabEffect, type TabEvent, type TabState } from './tab-core';

/** A response as the simulated database gives it. */
export interface SimResponse {
  status: number;
  message?: string;
  stamp?: { id: number; generation: number };
}

export interface SimOptions {
  seed: number;
  /** The machines under test; a test swaps in a broken one to show the simulator finds it. */
  swStep?: <R>(state: ReturnType<typeof createSwState>, event: SwEvent<R>) => SwEffect<R>[];
  tabStep?: <R>(state: TabState, event: TabEvent<R>) => TabEffect<R>[];
  /** A DB worker whose stop waits for requests that arrive while it stops too (an old bug). */
  stopWaitsForLateRequests?: boolean;
  /** Keep a trace of every step (for a failing seed's replay). */
  trace?: boolean;
}

export interface SimResult {
  seed: number;
  steps: number;
  requests: number;
  violations: string[];
  /** The schedule's actions (open, close, crash, restart, request…), enough to read what happened. */
  schedule: string[];
  trace: string[];
  /** Every change of a tab's role seen, as `from --> to: event` (docs/architecture.md's diagram is checked against these). */
  transitions: Set<string>;
}

interface PageRequest {
  id: number;
  tab: string;
  write: boolean;
  rid: string;
  version: string;
  startedAt: number;
  answer?: SimResponse & { at: number };
}

interface SimTab {
  id: string;
  core: TabState;
  alive: boolean;
  backend: boolean;
  controlled: boolean;
  listening: boolean;
  worker: SimWorker | undefined;
  wake: number;
  kept: SimResponse['stamp'];
  openedAt: number;
  /** Left into the back/forward cache: nothing of it runs again, and what it still holds stays held. */
  frozen?: boolean;
}

interface Job {
  req: PageRequest;
  reply(moved: boolean, response: SimResponse): void;
}

interface SimWorker {
  id: number;
  tab: string;
  version: string;
  state: 'files' | 'opening' | 'serving' | 'stopping' | 'stopped' | 'failed' | 'dead';
  error?: string;
  queue: Job[];
  busy: boolean;
  /** Its page was frozen: it does nothing more and keeps the files if it has them. */
  frozen?: boolean;
}

type Dest = { kind: 'worker'; worker: SimWorker; generation: number } | { kind: 'tab'; tab: string; generation: number };

const opfsFailure = 'OPFS failed (simulated)';
const newerSchema = 'The database was made by a newer Otto';

/** Runs one seeded schedule and returns what it found. */
export function simulate(options: SimOptions): SimResult {
  const swStep = options.swStep ?? realSwStep;
  const tabStep = options.tabStep ?? realTabStep;
  const random = mulberry32(options.seed);
  const pick = (n: number) => Math.floor(random() * n);
  const chance = (p: number) => random() < p;
  const violations: string[] = [];
  const schedule: string[] = [];
  const trace: string[] = [];
  const transitions = new Set<string>();
  let now = 0;
  let steps = 0;
  let seq = 0;
  const heap: Array<{ at: number; seq: number; run: () => void }> = [];
  const at = (time: number, run: () => void) => push(heap, { at: Math.max(time, now), seq: seq++, run });
  const linkLast = new Map<string, number>();
  /** Delivers in order per link (a port or a channel keeps order), in any order across links. */
  const deliver = (link: string, run: () => void, max = 8) => {
    const time = Math.max(now + pick(max + 1), linkLast.get(link) ?? 0);
    linkLast.set(link, time);
    at(time, run);
  };
  const note = (line: () => string) => {
    if (options.trace) trace.push(`${now} ${line()}`);
  };

  // The schedule's knobs, drawn from the seed.
  // Faults stop at the quiet time (below): from then on OPFS opens.
  let opfsFailRate = chance(0.1) ? 0.3 : 0;
  const stopParks = options.stopWaitsForLateRequests ?? false;

  const tabs = new Map<string, SimTab>();
  const workers: SimWorker[] = [];
  const ports = new Map<PortId, Dest>();
  let nextPort = 1;
  let swGeneration = 1;
  let sw = createSwState();
  let swWake = 0;
  const ownerLock: { holder: string | undefined; queue: string[] } = { holder: undefined, queue: [] };
  const filesLock: { holder: SimWorker | undefined; queue: SimWorker[] } = { holder: undefined, queue: [] };
  const db = { applied: new Map<string, number>(), generation: 0, schemaVersion: '', log: new Map<string, SimResponse>(), stamp: undefined as SimResponse['stamp'], nextStamp: 1 };
  const requests = new Map<number, PageRequest>();
  let nextRequest = 1;
  let ownerSince: number | undefined;
  /** The last moment a live tab owned a serving database. */
  let lastServing: number | undefined;
  /** Requests the service worker relays through a tab: the tab's id for it → where to answer. */
  const relayed = new Map<string, { port: PortId; swId: number; generation: number }>();
  const payload = new Map<string, PageRequest>();
  const tabRequestIds = new Map<string, number>();
  /** When a database ran which request, in order: an owner that answers others is busy, not dead. */
  const ranAt: Array<{ at: number; id: number }> = [];

  // --- Web Locks ---------------------------------------------------------------------------------

  function grantOwner(): void {
    while (!ownerLock.holder && ownerLock.queue.length > 0) {
      const id = ownerLock.queue.shift() as string;
      const tab = tabs.get(id);
      // A frozen page still in the queue is granted the lock and never lets it go (the worst a
      // browser may do; WebKit takes it back, Chromium keeps such pages out of the cache).
      if (tab?.frozen) {
        ownerLock.holder = id;
        break;
      }
      if (!tab?.alive) continue;
      ownerLock.holder = id;
      deliver(`lock>${id}`, () => (tab.alive ? tabRun(tab, { type: 'lock-granted', now }) : releaseOwner(id)), 3);
    }
  }
  function releaseOwner(id: string): void {
    ownerLock.queue = ownerLock.queue.filter((q) => q !== id);
    if (ownerLock.holder !== id) return;
    ownerLock.holder = undefined;
    grantOwner();
  }
  function grantFiles(): void {
    while (!filesLock.holder && filesLock.queue.length > 0) {
      const worker = filesLock.queue.shift() as SimWorker;
      if (worker.state !== 'files') continue;
      filesLock.holder = worker;
      at(now + 1, () => open(worker));
    }
  }
  function releaseFiles(worker: SimWorker): void {
    filesLock.queue = filesLock.queue.filter((w) => w !== worker);
    if (filesLock.holder !== worker) return;
    filesLock.holder = undefined;
    grantFiles();
  }

  // --- DB workers (a model of serve-mock-api-in-worker: one request at a time, stop finishes what it has) ---

  function startWorker(tab: SimTab): void {
    const worker: SimWorker = { id: workers.length + 1, tab: tab.id, version: tab.core.version ?? '', state: 'files', queue: [], busy: false };
    workers.push(worker);
    tab.worker = worker;
    filesLock.queue.push(worker);
    grantFiles();
    at(now + filesWaitMs, () => {
      if (worker.state === 'files') fail(worker, 'The database is still held by another tab (simulated BUSY).');
    });
  }
  function open(worker: SimWorker): void {
    if (worker.frozen) return;
    if (worker.state !== 'files') return releaseFiles(worker);
    worker.state = 'opening';
    at(now + 20 + pick(400), () => {
      if (worker.state !== 'opening' || worker.frozen) return;
      if (opfsFailRate > 0 && chance(opfsFailRate)) return fail(worker, opfsFailure);
      if (db.schemaVersion && worker.version < db.schemaVersion) return fail(worker, newerSchema, 'SCHEMA_TOO_NEW');
      if (worker.version > db.schemaVersion) db.schemaVersion = worker.version;
      worker.state = 'serving';
      toTab(worker, { type: 'worker-ready', now: 0, info: { storage: 'opfs' } });
      pump(worker);
    });
  }
  function fail(worker: SimWorker, error: string, code = 'OPEN_FAILED'): void {
    if (worker.state === 'dead' || worker.frozen) return;
    worker.state = 'failed';
    worker.error = error;
    releaseFiles(worker);
    for (const job of worker.queue.splice(0)) job.reply(false, { status: 503, message: error });
    toTab(worker, { type: 'worker-failed', now: 0, error: { code, message: error } });
  }
  function toTab(worker: SimWorker, event: TabEvent<SimResponse>): void {
    deliver(`w${worker.id}>${worker.tab}`, () => {
      const tab = tabs.get(worker.tab);
      if (tab?.alive && tab.worker === worker) tabRun(tab, { ...event, now } as TabEvent<SimResponse>);
    });
  }
  function receive(worker: SimWorker, job: Job): void {
    if (worker.state === 'dead') return;
    if (worker.state === 'failed') return job.reply(false, { status: 503, message: worker.error ?? 'failed' });
    if ((worker.state === 'stopping' && !stopParks) || worker.state === 'stopped') return job.reply(true, { status: 503 });
    worker.queue.push(job);
    pump(worker);
  }
  function pump(worker: SimWorker): void {
    if (worker.frozen || worker.busy || (worker.state !== 'serving' && worker.state !== 'stopping')) return;
    const job = worker.queue.shift();
    if (!job) {
      if (worker.state === 'stopping') {
        worker.state = 'stopped';
        releaseFiles(worker);
        toTab(worker, { type: 'worker-stopped', now: 0 });
      }
      return;
    }
    worker.busy = true;
    at(now + 1 + pick(30), () => {
      worker.busy = false;
      if (worker.state === 'dead' || worker.frozen) return;
      ranAt.push({ at: now, id: job.req.id });
      job.reply(false, run(worker, job.req));
      pump(worker);
    });
  }
  /** The database itself: a write runs once per request id, outdated senders are refused, stamps go before writes. */
  function run(worker: SimWorker, req: PageRequest): SimResponse {
    if (!req.write) {
      db.stamp ??= { id: db.nextStamp++, generation: db.generation };
      return { status: 200, stamp: db.stamp };
    }
    if (req.version < worker.version) return { status: 409, message: 'Otto was updated in another tab. Reload to continue.' };
    const replay = db.log.get(req.rid);
    if (replay) return replay;
    if (worker.version < db.schemaVersion) violations.push(`outdated worker ${worker.id} (${worker.version}) wrote ${req.rid} to a ${db.schemaVersion} database`);
    db.stamp = undefined;
    const times = (db.applied.get(req.rid) ?? 0) + 1;
    db.applied.set(req.rid, times);
    if (times > 1) violations.push(`write ${req.rid} applied ${times} times`);
    db.generation++;
    const response = { status: 201 };
    db.log.set(req.rid, response);
    return response;
  }
  function killWorker(worker: SimWorker | undefined): void {
    if (!worker || worker.state === 'dead') return;
    worker.state = 'dead';
    worker.queue = [];
    releaseFiles(worker);
  }

  // --- Tabs (the driver of tab-core) --------------------------------------------------------------

  function tabRun(tab: SimTab, event: TabEvent<SimResponse>): void {
    if (!tab.alive) return;
    steps++;
    note(() => `tab ${tab.id} ${event.type}${event.type === "wire" ? `:${event.message.type}` : ""}`);
    const before = tab.core.role.kind;
    const effects = tabStep(tab.core, event);
    if (tab.core.role.kind !== before) transitions.add(`${before} --> ${tab.core.role.kind}: ${event.type === 'wire' ? event.message.type : event.type}`);
    for (const effect of effects) {
      if (effect.type !== 'wake' && effect.type !== 'status') note(() => `  ${tab.id} → ${JSON.stringify(effect, (k, v) => (k === 'payload' ? undefined : v))}`);
      tabEffect(tab, effect);
    }
    check();
  }

  function tabEffect(tab: SimTab, effect: TabEffect<SimResponse>): void {
    switch (effect.type) {
      case 'post':
        for (const other of tabs.values()) {
          if (other === tab || !other.alive || !other.backend || !other.listening) continue;
          const response = effect.payload && 'response' in effect.payload ? effect.payload.response : undefined;
          deliver(`bc:${tab.id}>${other.id}`, () => tabRun(other, { type: 'wire', now, message: effect.message, ...(response ? { response, ...failureOf(response) } : {}) }));
        }
        return;
      case 'start-worker':
        return startWorker(tab);
      case 'stop-worker': {
        const worker = tab.worker;
        if (worker && (worker.state === 'serving' || worker.state === 'opening' || worker.state === 'files')) {
          if (worker.state !== 'serving') {
            worker.state = 'stopped';
            releaseFiles(worker);
            toTab(worker, { type: 'worker-stopped', now: 0 });
          } else {
            worker.state = 'stopping';
            pump(worker);
          }
        } else if (worker) toTab(worker, { type: 'worker-stopped', now: 0 });
        return;
      }
      case 'terminate-worker':
        killWorker(tab.worker);
        tab.worker = undefined;
        return;
      case 'release-lock':
        return releaseOwner(tab.id);
      case 'leave-lock-queue':
        ownerLock.queue = ownerLock.queue.filter((q) => q !== tab.id);
        return;
      case 'serve': {
        const separator = effect.key.indexOf('|');
        const req = payload.get(separator >= 0 ? effect.key.slice(separator + 1) : effect.key);
        const worker = tab.worker;
        const reply = (moved: boolean, response: SimResponse) =>
          deliver(`w>${tab.id}`, () => tabRun(tab, { type: 'worker-answer', now, key: effect.key, moved, ...failureOf(response), response }));
        if (!req) return;
        if (!worker || worker.state === 'dead') {
          const handing = tab.core.role.kind === 'handing-over';
          return reply(handing, { status: 503, message: 'The database worker was stopped.' });
        }
        deliver(`${tab.id}>w${worker.id}`, () => receive(worker, { req, reply }));
        return;
      }
      case 'settle':
      case 'refuse': {
        const response: SimResponse = effect.type === 'settle' ? effect.response : { status: effect.status, message: effect.message };
        const moved = effect.type === 'refuse' && effect.moved === true;
        const via = relayed.get(effect.id);
        if (via) {
          relayed.delete(effect.id);
          deliver(`${tab.id}>sw`, () => swRun({ type: 'answer', now, port: via.port, id: via.swId, moved, ...failureOf(response), response }, via.generation));
          return;
        }
        const id = tabRequestIds.get(effect.id);
        if (id !== undefined) answer(id, response);
        return;
      }
      case 'hand-db-port': {
        const worker = tab.worker;
        if (!tab.controlled || !worker) return;
        const port = nextPort++;
        ports.set(port, { kind: 'worker', worker, generation: swGeneration });
        deliver(`${tab.id}>sw`, () => swRun({ type: 'owner-port', now, owner: tab.id, port }));
        return;
      }
      case 'offer-tab-port':
        return offerTabPort(tab);
      case 'page-gone':
        if (tab.controlled) deliver(`${tab.id}>sw`, () => swRun({ type: 'page-gone', now, clientId: tab.id }));
        return;
      case 'db-port-closed':
        if (tab.controlled) deliver(`${tab.id}>sw`, () => swRun({ type: 'owner-closed', now, owner: tab.id, stopped: effect.stopped }));
        return;
      case 'wake':
        if (effect.at === undefined) return;
        tab.wake = effect.at;
        at(effect.at, () => {
          if (tab.wake === effect.at) tabRun(tab, { type: 'tick', now });
        });
        return;
      default:
        return;
    }
  }

  function offerTabPort(tab: SimTab): void {
    if (!tab.controlled || !tab.backend || !tab.listening) return;
    const port = nextPort++;
    ports.set(port, { kind: 'tab', tab: tab.id, generation: swGeneration });
    deliver(`${tab.id}>sw`, () => swRun({ type: 'tab-port', now, clientId: tab.id, port }));
  }

  // --- The service worker (the driver of sw-core) ---------------------------------------------------

  function describe(dest: Dest | undefined): string {
    if (!dest) return 'no port';
    return dest.kind === 'worker' ? `worker ${dest.worker.id} of ${dest.worker.tab}, ${dest.worker.state}` : `tab ${dest.tab}`;
  }

  function aliveIds(): string[] {
    return [...tabs.values()].filter((t) => t.alive).map((t) => t.id);
  }

  function swRun(event: SwEvent<SimResponse>, generation = swGeneration): void {
    // Ports belong to the instance that got them: a restarted worker never hears on them again.
    if (generation !== swGeneration) return;
    if ((event.type === 'answer' || event.type === 'owner-port' || event.type === 'tab-port') && ports.get(event.port)?.generation !== swGeneration) return;
    steps++;
    note(() => `sw ${event.type} ${JSON.stringify(event, (k, v) => (k === 'response' || k === 'alive' || k === 'now' || k === 'type' ? undefined : v))}`);
    for (const effect of swStep(sw, event)) {
      if (effect.type !== "wake") note(() => `  sw → ${JSON.stringify(effect)}${effect.type === 'send' ? ` (${describe(ports.get(effect.port))})` : ''}`);
      swEffect(effect);
    }
    check();
  }

  function swEffect(effect: SwEffect<SimResponse>): void {
    switch (effect.type) {
      case 'send': {
        const dest = ports.get(effect.port);
        const req = requests.get(effect.id);
        if (!dest || !req) return;
        const generation = swGeneration;
        const reply = (moved: boolean, response: SimResponse) =>
          deliver(`p${effect.port}>sw`, () => swRun({ type: 'answer', now, port: effect.port, id: effect.id, moved, ...failureOf(response), response }, generation));
        if (dest.kind === 'worker') {
          deliver(`sw>p${effect.port}`, () => receive(dest.worker, { req, reply }));
          return;
        }
        const tab = tabs.get(dest.tab);
        const tabId = `sw${generation}:${effect.port}:${effect.id}`;
        relayed.set(tabId, { port: effect.port, swId: effect.id, generation });
        payload.set(tabId, req);
        deliver(`sw>p${effect.port}`, () => {
          if (tab) tabRun(tab, { type: 'dispatch', now, id: tabId, label: label(req), read: !req.write, resend: true, long: false, deadline: effect.deadline, tried: effect.tried });
        });
        return;
      }
      case 'respond':
        return answer(effect.id, effect.response);
      case 'refuse':
        return answer(effect.id, { status: effect.status, message: effect.message });
      case 'ask-tabs':
        for (const tab of tabs.values()) {
          if (!tab.alive || !tab.controlled || !tab.listening || !tab.backend) continue;
          deliver(`sw>${tab.id}`, () => tabRun(tab, { type: 'db-port-wanted', now }));
        }
        return;
      case 'ask-tab': {
        const tab = tabs.get(effect.clientId);
        // A page whose script does not listen yet loses the message (the 3 s / 503 bug's trigger).
        if (tab?.alive && tab.listening && tab.backend) deliver(`sw>${tab.id}`, () => offerTabPort(tab));
        return;
      }
      case 'close-port':
        return;
      case 'wake':
        if (effect.at === undefined) return;
        swWake = effect.at;
        at(effect.at, () => {
          if (swWake === effect.at) swRun({ type: 'tick', now, alive: aliveIds() });
        });
        return;
    }
  }

  // --- Pages --------------------------------------------------------------------------------------

  function label(req: PageRequest): string {
    return `${req.write ? 'POST' : 'GET'} /api/customers`;
  }

  function answer(id: number, response: SimResponse): void {
    const req = requests.get(id);
    if (!req || req.answer) return;
    req.answer = { ...response, at: now };
    const tab = tabs.get(req.tab);
    if (tab && response.stamp) tab.kept = response.stamp;
    const failed = response.status === 503 || response.status === 504;
    const inWords = /opfs failed|newer otto|still held|may or may not/i.test(response.message ?? '');
    if (failed && !inWords && now - req.startedAt < ownerWaitMs) {
      violations.push(`request ${id} (${label(req)} from ${req.tab}) answered ${response.status} after ${now - req.startedAt} ms, before the owner wait of ${ownerWaitMs} ms: "${response.message}"`);
    }
    if (response.status === 504 && ownerSince !== undefined && ownerSince <= req.startedAt && !inWords) {
      violations.push(`request ${id} answered 504 although an owner was ready from before it was sent (${ownerSince})`);
    }
  }

  function openTab(version: string, backend: boolean): void {
    const id = `t${tabs.size + 1}`;
    const tab: SimTab = {
      id,
      core: createTabState(id, version),
      alive: true,
      backend,
      controlled: chance(0.85),
      listening: false,
      worker: undefined,
      wake: 0,
      kept: undefined,
      openedAt: now,
    };
    tabs.set(id, tab);
    schedule.push(`${now} open ${id} ${version}${backend ? '' : ' (landing page)'}${tab.controlled ? '' : ' (uncontrolled)'}`);
    // The page's own scripts load; only then does it listen (messages before that are lost).
    at(now + pick(400), () => {
      if (!tab.alive) return;
      tab.listening = true;
      if (!backend) return;
      ownerLock.queue.push(id);
      grantOwner();
      tabEffect(tab, { type: 'post', message: tabHello(tab.core) });
      offerTabPort(tab);
    });
    if (version > '1' && backend) {
      at(now + 15_000, () => {
        const serving = workers.some((w) => w.version === version && (w.state === 'serving' || w.state === 'stopping' || w.state === 'stopped'));
        if (tab.alive && tab.listening && !serving && opfsFailRate === 0) violations.push(`the newer ${version} tab ${id} did not take the database over within 15 s`);
      });
    }
  }

  function pageRequest(tab: SimTab, write: boolean): void {
    const id = nextRequest++;
    const req: PageRequest = { id, tab: tab.id, write, rid: `r${id}`, version: tab.core.version ?? '', startedAt: now };
    requests.set(id, req);
    if (tab.controlled) {
      deliver(`${tab.id}>sw`, () => swRun({ type: 'fetch', now, request: { id, label: label(req), clientId: tab.id, read: !write, resend: true, long: false }, alive: aliveIds() }));
      return;
    }
    if (!tab.listening || !tab.backend) {
      requests.delete(id);
      return;
    }
    const tabId = `${tab.id}:${id}`;
    tabRequestIds.set(tabId, id);
    payload.set(tabId, req);
    tabRun(tab, { type: 'dispatch', now, id: tabId, label: label(req), read: !write, resend: true, long: false });
  }

  /** A page that goes takes its own unanswered requests with it. */
  function dropPageRequests(tab: SimTab): void {
    for (const req of requests.values()) if (req.tab === tab.id && !req.answer) requests.delete(req.id);
  }

  function close(tab: SimTab, crash: boolean): void {
    if (!tab.alive) return;
    schedule.push(`${now} ${crash ? 'crash' : 'close'} ${tab.id}`);
    dropPageRequests(tab);
    if (!crash) {
      // A page that is left fires pagehide first; `backend.close()` from the app does not.
      if (chance(0.7)) tabRun(tab, { type: 'page-hide', now });
      tabRun(tab, { type: 'close', now });
    }
    tab.alive = false;
    killWorker(tab.worker);
    releaseOwner(tab.id);
    // A crash changes who can answer without a step of either machine: look now.
    check();
  }

  /**
   * The page is left for another site and kept in the back/forward cache: it sees pagehide
   * (persisted), and from then on nothing of it runs, its worker's included. Whatever it did not
   * let go in that one step stays held.
   */
  function freeze(tab: SimTab): void {
    if (!tab.alive) return;
    schedule.push(`${now} ${tab.id} left into the back/forward cache`);
    dropPageRequests(tab);
    tabRun(tab, { type: 'page-hide', now, persisted: true });
    tab.alive = false;
    tab.frozen = true;
    if (tab.worker && tab.worker.state !== 'dead') tab.worker.frozen = true;
    check();
    // Liveness: the tabs left can open the database, whatever the frozen page held.
    const frozenAt = now;
    at(now + ownerWaitMs + filesWaitMs + 2_000, () => {
      check();
      const newest = [...tabs.values()].reduce((v, t) => (t.alive && (t.core.version ?? '') > v ? t.core.version ?? '' : v), '');
      const able = [...tabs.values()].some((t) => t.alive && t.backend && t.listening && !t.core.outdated && (t.core.version ?? '') === newest && newest >= db.schemaVersion);
      if (able && opfsFailRate === 0 && (lastServing ?? -1) <= frozenAt) {
        violations.push(`no tab could open the database in the ${now - frozenAt} ms after ${tab.id} was left into the back/forward cache`);
      }
    });
  }

  // --- Invariants ---------------------------------------------------------------------------------

  function check(): void {
    const owning = [...tabs.values()].filter((t) => t.alive && ['starting', 'owning', 'failed', 'handing-over'].includes(t.core.role.kind));
    for (const tab of owning) if (ownerLock.holder !== tab.id) violations.push(`tab ${tab.id} acts as owner (${tab.core.role.kind}) without the lock`);
    const open = workers.filter((w) => w.state === 'opening' || w.state === 'serving' || w.state === 'stopping');
    if (open.length > 1) violations.push(`${open.length} DB workers have the database open: ${open.map((w) => w.id).join(', ')}`);
    for (const tab of tabs.values()) {
      if (tab.alive && tab.kept && db.stamp?.id === tab.kept.id && tab.kept.generation !== db.generation) {
        violations.push(`tab ${tab.id} would trust a kept screen (stamp ${tab.kept.id}) after a write it did not see`);
      }
    }
    const ready = [...tabs.values()].some((t) => t.alive && t.core.role.kind === 'owning' && t.worker?.state === 'serving');
    if (ready) lastServing = now;
    if (ready) ownerSince ??= now;
    else ownerSince = undefined;
  }

  // --- The schedule ---------------------------------------------------------------------------------

  openTab('1', true);
  const horizon = 20_000;
  const actions = 20 + pick(40);
  let newerOpened = false;
  for (let i = 0; i < actions; i++) {
    at(pick(horizon), () => {
      const alive = [...tabs.values()].filter((t) => t.alive);
      const roll = random();
      if (roll < 0.55 || alive.length === 0) {
        const tab = alive[pick(alive.length)];
        if (!tab) return openTab('1', true);
        const write = chance(0.5);
        schedule.push(`${now} ${write ? 'write' : 'read'} from ${tab.id}`);
        pageRequest(tab, write);
      } else if (roll < 0.68) {
        const newer = !newerOpened && chance(0.25);
        newerOpened ||= newer;
        openTab(newer ? '2' : '1', !chance(0.1));
        // A page's own request right after it loads (before its backend listens).
        const tab = [...tabs.values()].at(-1) as SimTab;
        if (tab.controlled) pageRequest(tab, false);
      } else if (roll < 0.78) {
        // A page closed, or left for another site and kept in the back/forward cache.
        if (alive.length > 1) {
          const tab = alive[pick(alive.length)] as SimTab;
          if (chance(0.3)) freeze(tab);
          else close(tab, false);
        }
      } else if (roll < 0.85) {
        if (alive.length > 1) close(alive[pick(alive.length)] as SimTab, true);
      } else if (roll < 0.92) {
        // The browser stops an idle service worker; its state (ports) is gone.
        if (sw.requests.size === 0) {
          schedule.push(`${now} service worker restarted`);
          swGeneration++;
          sw = createSwState();
          swWake = 0;
        }
      } else {
        const tab = alive[pick(alive.length)];
        if (tab) {
          schedule.push(`${now} burst of writes from ${tab.id}`);
          for (let k = 0; k < 10; k++) pageRequest(tab, true);
        }
      }
    });
  }

  // Quiet (issue 54): the faults stop. A page at the newest version opens (the person reloads),
  // and once it has had time to start, it and every other page at that version send a read and a
  // write: each must succeed. A refusal in words is fine while things go wrong, never after: a
  // host that refused everything would otherwise pass.
  const quietRequests = new Set<number>();
  at(horizon + 60_000, () => {
    opfsFailRate = 0;
    const newest = [...tabs.values()].reduce((v, t) => ((t.core.version ?? '') > v ? (t.core.version ?? '') : v), '1');
    schedule.push(`${now} quiet: faults stop; a page at version ${newest} opens`);
    openTab(newest, true);
    at(now + ownerWaitMs + filesWaitMs, () => {
      for (const tab of tabs.values()) {
        if (!tab.alive || !tab.backend || !tab.listening || tab.core.version !== newest) continue;
        for (const write of [false, true]) {
          quietRequests.add(nextRequest);
          schedule.push(`${now} quiet ${write ? 'write' : 'read'} from ${tab.id}`);
          pageRequest(tab, write);
        }
      }
    });
  });

  // Run until nothing is left to happen (every timer fired, every message delivered).
  const limit = horizon + 300_000;
  while (heap.length > 0) {
    const item = pop(heap) as { at: number; run: () => void };
    now = item.at;
    if (now > limit) {
      violations.push(`still busy at ${limit} ms`);
      break;
    }
    item.run();
    if (violations.length > 0) break;
  }

  // Every request of a page still open was answered, and every write that was acknowledged is there once.
  if (violations.length === 0) {
    for (const req of requests.values()) {
      const tab = tabs.get(req.tab);
      if (!tab?.alive) continue;
      if (!req.answer) violations.push(`request ${req.id} (${label(req)} from ${req.tab}) was never answered`);
      // The budget, or longer while the database answered other requests since this one was made
      // (working through a queue, not dead), never past the longest a request may take.
      else if (req.answer.at > Math.min(Math.max(req.startedAt + ownerWaitMs, lastOtherRun(req.id, req.startedAt, req.answer.at)) + silenceMs, req.startedAt + longRequestMs) + 1_000) {
        violations.push(`request ${req.id} answered after ${req.answer.at - req.startedAt} ms, past its budget`);
      } else if (req.write && req.answer.status === 201 && db.applied.get(req.rid) !== 1) {
        violations.push(`write ${req.rid} was acknowledged but is in the database ${db.applied.get(req.rid) ?? 0} times`);
      } else if (req.write && req.answer.status >= 500 && !/may or may not/.test(req.answer.message ?? '') && db.applied.has(req.rid)) {
        violations.push(`write ${req.rid} was answered ${req.answer.status} ("${req.answer.message}") but is in the database`);
      } else if (quietRequests.has(req.id) && req.answer.status !== (req.write ? 201 : 200)) {
        violations.push(`request ${req.id} (${label(req)} from ${req.tab}), sent once the faults had stopped, was answered ${req.answer.status} ("${req.answer.message}")`);
      }
    }
  }
  return { seed: options.seed, steps, requests: nextRequest - 1, violations, schedule, trace, transitions };

  /** The last time the database ran a request other than `id` within (`from`, `to`]. */
  function lastOtherRun(id: number, from: number, to: number): number {
    let last = -Infinity;
    for (const ran of ranAt) if (ran.id !== id && ran.at > from && ran.at <= to) last = ran.at;
    return last;
  }
}

/** A refusal's words, as the drivers read them from a 5xx answer. */
function failureOf(response: SimResponse): { failure?: string } {
  return response.status >= 500 ? { failure: response.message ?? `status ${response.status}` } : {};
}

// --- Small helpers: a seeded PRNG and a binary heap ordered by (at, seq) --------------------------

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Item = { at: number; seq: number };
const before = (a: Item, b: Item) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

function push<T extends Item>(heap: T[], item: T): void {
  heap.push(item);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i] as T, heap[parent] as T)) break;
    [heap[i], heap[parent]] = [heap[parent] as T, heap[i] as T];
    i = parent;
  }
}

function pop<T extends Item>(heap: T[]): T | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length > 0 && last) {
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l] as T, heap[m] as T)) m = l;
      if (r < heap.length && before(heap[r] as T, heap[m] as T)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m] as T, heap[i] as T];
      i = m;
    }
  }
  return top;
}

/** Runs `count` schedules from `firstSeed` on; stops at the first that finds something. */
export function explore(count: number, firstSeed = 1, options: Omit<SimOptions, 'seed'> = {}): { ran: number; steps: number; failed?: SimResult } {
  let steps = 0;
  for (let seed = firstSeed; seed < firstSeed + count; seed++) {
    const result = simulate({ ...options, seed });
    steps += result.steps;
    if (result.violations.length > 0) return { ran: seed - firstSeed + 1, steps, failed: result };
  }
  return { ran: count, steps };
}
