// The service worker machine's state, events and effects (sw-core.ts), as the driver
// (service-worker-relay.ts) and the simulator (simulate.ts) see them.

/** A MessagePort as the core knows it: a number the driver maps to the real port. */
export type PortId = number;

/** What the core needs to know of a request (its bytes stay with the driver). */
export interface SwRequestInfo {
  id: number;
  /** `GET /api/customers`, for the words of a refusal. */
  label: string;
  /** The page that sent it ('' for a navigation typed into the address bar). */
  clientId: string;
  /** GET or HEAD: nothing changes, whatever happens to it. */
  read: boolean;
  /** A read, a PUT or a write with a request id: the database runs it at most once, so it may be sent again. */
  resend: boolean;
  /** An import of many rows or its undo: up to `longRequestMs`, whatever the silence. */
  long: boolean;
}

/** Where one request is: waiting for a route, or sent on a port. */
export type SwRequestState =
  /**
   * `earlier`: the routes it was on before, whose answer is taken too; one of them may have run it,
   * so a write that is then refused says so in words.
   */
  | { kind: 'waiting'; info: SwRequestInfo; startedAt: number; earlier: PortId[] }
  /** `via`: straight to the owner's DB worker, or to a tab that relays it (and answers 503 itself when no owner comes). */
  | { kind: 'sent'; info: SwRequestInfo; startedAt: number; port: PortId; sentAt: number; via: 'owner' | 'tab'; earlier: PortId[] };

/** The route to the database owner's DB worker. */
export type OwnerRoute = { kind: 'none' } | { kind: 'known'; owner: string; port: PortId };

export interface SwState {
  owner: OwnerRoute;
  /** Ports of owners (by client id) that were replaced; what is on them may still be answered until `retireAt` (never, for the same owner). */
  superseded: Array<{ owner: string; port: PortId; retireAt: number | undefined }>;
  /** Ports to tabs (each relays to the owner), by client id. */
  tabs: Map<string, PortId>;
  /** When the tabs were last asked for a route (NEED_DB_PORT, INIT_PORT), while requests wait. */
  askedAt: number | undefined;
  requests: Map<number, SwRequestState>;
  /** When each port last answered anything: a busy database is not a dead one. */
  lastAnswer: Map<PortId, number>;
  /**
   * Pages that are gone (closed, or no longer among the window clients). What they sent and no
   * route has is dropped, never sent again: nobody reads its answer, and run late it could land
   * behind a newer write the person made in another tab.
   */
  gone: Set<string>;
}

export type SwEvent<R> =
  /** `alive`: the window clients there were at `aliveAt`, when the driver looked (a page newer than that is not in it). */
  | { type: 'fetch'; now: number; request: SwRequestInfo; alive?: readonly string[]; aliveAt?: number }
  | { type: 'owner-port'; now: number; owner: string; port: PortId }
  | { type: 'owner-closed'; now: number; owner: string; /** The worker stopped first: nothing still on its port was run. */ stopped: boolean }
  | { type: 'tab-port'; now: number; clientId: string; port: PortId }
  | {
      type: 'answer';
      now: number;
      port: PortId;
      id: number;
      /** Not run there: the database is moving; send it again. */
      moved: boolean;
      /** The answer is a refusal (5xx), in these words. */
      failure?: string;
      response: R;
    }
  | { type: 'tick'; now: number; alive?: readonly string[]; aliveAt?: number }
  /** A page said it is being left (pagehide). */
  | { type: 'page-gone'; now: number; clientId: string };

export type SwEffect<R> =
  /** `deadline`: by when an owner must have it; `tried`: it was on a route before (which may have run it). */
  | { type: 'send'; port: PortId; id: number; deadline: number; tried: boolean }
  | { type: 'respond'; id: number; response: R }
  | { type: 'refuse'; id: number; status: 503 | 504; code: 'SERVICE_UNAVAILABLE' | 'TIMEOUT'; message: string }
  /** NEED_DB_PORT to every window: the owner hands its DB worker's port, other Otto tabs a port of their own. */
  | { type: 'ask-tabs' }
  /** INIT_PORT to the page that sent a request (the spec's handshake). */
  | { type: 'ask-tab'; clientId: string }
  | { type: 'close-port'; port: PortId }
  /** Deliver a `tick` at this moment (replaces any earlier wake-up). */
  | { type: 'wake'; at: number | undefined };
