// The tab machine's states, events and effects (tab-core.ts is the machine itself).

/** What this tab is to the database. */
export type TabRole =
  /** In the lock's queue (or out of it, when outdated), with no owner known. */
  | { kind: 'waiting' }
  /** Another tab owns the database (`info`: what it says of it); `failed`: its database could not be opened. */
  | { kind: 'following'; owner: string; info?: OwnerInfo; failed?: HostError }
  /** Holds the lock; its DB worker is opening the database. */
  | { kind: 'starting' }
  | { kind: 'owning'; info: OwnerInfo }
  /** Holds the lock, but its database could not be opened (recovery runs here). */
  | { kind: 'failed'; error: HostError }
  /** A newer version appeared: its worker finishes what it has, then the lock goes to the newer tab. */
  | { kind: 'handing-over' }
  | { kind: 'closed' };

export interface HostError {
  code: string;
  message: string;
}

/** What the owner tells the others about the database. */
export interface OwnerInfo {
  storage: 'opfs' | 'indexeddb' | 'memory';
  fallbackReason?: string;
  appVersion?: string;
}

/** A request this tab must see answered: its own, or one the service worker relayed through it. */
export interface TabRequestState {
  label: string;
  read: boolean;
  resend: boolean;
  long: boolean;
  startedAt: number;
  /** Past it, the request is answered 504 (or 503 when no owner ever had it). */
  deadline: number;
  /** The owner it went to (this tab's id for its own worker), or none yet. */
  sentTo: string | undefined;
  /** It was sent to an owner before, which may have run it. */
  tried: boolean;
  sentAt: number;
}

export interface TabState {
  readonly id: string;
  readonly version: string | undefined;
  role: TabRole;
  /** A different version seen in another tab. */
  otherVersion: string | undefined;
  /** A newer version was seen: this tab never takes the lock again and its writes are refused. */
  outdated: boolean;
  /** Its worker was stopped when the page was hidden; the page must reload if it comes back. */
  stoppedOnHide: boolean;
  requests: Map<string, TabRequestState>;
  /** What this tab's worker runs for other tabs (`from|id`): a closing owner hands each back at once. */
  serving: Set<string>;
  /** When each owner last answered any tab: a busy owner is not a dead one. */
  lastAnswer: Map<string, number>;
}

/** Messages between tabs (BroadcastChannel); bodies travel beside them in the driver. */
export type TabWire =
  | { type: 'hello'; from: string; appVersion?: string }
  | { type: 'owner'; owner: string; info: OwnerInfo }
  | { type: 'owner-failed'; owner: string; error: HostError }
  | { type: 'request'; id: string; from: string; to: string }
  | {
      type: 'response';
      id: string;
      from: string;
      to: string;
      moved: boolean;
      /** Handed back by an owner that closed while its worker had it: it may have run there. */
      mayHaveRun?: boolean;
    };

export type TabEvent<R> =
  /** `deadline`: by when an owner must have it (else 503, unrun); the service worker's, for what it relays. */
  | { type: 'dispatch'; now: number; id: string; label: string; read: boolean; resend: boolean; long: boolean; deadline?: number; /** On its way somewhere before (the service worker's word). */ tried?: boolean }
  | { type: 'lock-granted'; now: number }
  | { type: 'worker-ready'; now: number; info: Omit<OwnerInfo, 'appVersion'> }
  | { type: 'worker-failed'; now: number; error: HostError }
  | { type: 'worker-stopped'; now: number }
  /** The database was replaced (a restore, a delete) and is where `info` says. */
  | { type: 'owner-info'; now: number; info: Omit<OwnerInfo, 'appVersion'> }
  /** The own worker answered `key` (a request id of this tab, or `from|id` of another tab's). */
  | { type: 'worker-answer'; now: number; key: string; moved: boolean; /** A refusal (5xx), in these words. */ failure?: string; response: R }
  | { type: 'wire'; now: number; message: TabWire; response?: R; failure?: string }
  | { type: 'db-port-wanted'; now: number }
  /** `persisted`: into the back/forward cache, where the page may be frozen at any moment. */
  | { type: 'page-hide'; now: number; persisted?: boolean }
  | { type: 'close'; now: number }
  | { type: 'tick'; now: number };

export type TabEffect<R> =
  | { type: 'post'; message: TabWire; /** The request's or response's bytes go along. */ payload?: { key: string } | { response: R } }
  | { type: 'start-worker' }
  | { type: 'stop-worker' }
  | { type: 'terminate-worker' }
  | { type: 'release-lock' }
  | { type: 'leave-lock-queue' }
  /** Run `key` in this tab's worker (its own request id, or `from|id` for another tab's). */
  | { type: 'serve'; key: string }
  | { type: 'settle'; id: string; response: R }
  | { type: 'refuse'; id: string; status: 503 | 504; code: 'SERVICE_UNAVAILABLE' | 'TIMEOUT'; message: string; /** Not run here and safe elsewhere: the relay may send it again. */ moved?: boolean }
  | { type: 'hand-db-port' }
  /** INIT_PORT to the service worker: a port to this tab, which relays to the owner. */
  | { type: 'offer-tab-port' }
  | { type: 'db-port-closed'; stopped: boolean }
  /** PAGE_GONE to the service worker: this page is being left. */
  | { type: 'page-gone' }
  | { type: 'status' }
  | { type: 'started' }
  | { type: 'start-failed'; error: HostError }
  | { type: 'warn'; message: string }
  | { type: 'wake'; at: number | undefined };
