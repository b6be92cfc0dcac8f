// CDP to every target a page's memory lives in: the page itself (Playwright's CDP session), and
// its dedicated workers and its origin's service worker, for which Playwright offers no CDP
// session. Those are attached through the page's session in the protocol's non-flattened mode
// (Target.attachToTarget with flatten: false, then Target.sendMessageToTarget), whose answers come
// back as Target.receivedMessageFromTarget events.
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { TargetInfo } from './memory-figures';

/**
 * Sends one CDP command to a target; resolves to its result, or to undefined when it failed or did
 * not answer within `timeoutMs` (a worker blocked in Atomics.wait, SQLite's OPFS proxy, answers
 * some commands, such as Runtime.getHeapUsage, but never runs a garbage collection).
 */
export type Send = (method: string, params?: Record<string, unknown>, timeoutMs?: number) => Promise<unknown>;

const defaultTimeoutMs = 15_000;

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
  return Promise.race([promise.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

interface RawTarget {
  targetId: string;
  type: string;
  url: string;
  title: string;
  parentId?: string;
}

const toInfo = (t: RawTarget): TargetInfo => ({ targetId: t.targetId, type: t.type, url: t.url, title: t.title, ...(t.parentId ? { parentId: t.parentId } : {}) });

export class PageTargets {
  private nextId = 1;
  private readonly answers = new Map<number, (result: unknown) => void>();
  private readonly attached: string[] = [];

  private constructor(
    private readonly session: CDPSession,
    /** The page's own target. */
    readonly self: TargetInfo,
  ) {
    session.on('Target.receivedMessageFromTarget', (event) => {
      const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: unknown };
      const answer = message.id === undefined ? undefined : this.answers.get(message.id);
      if (!answer || message.id === undefined) return;
      this.answers.delete(message.id);
      answer(message.error ? undefined : message.result);
    });
  }

  static async open(context: BrowserContext, page: Page): Promise<PageTargets> {
    const session = await context.newCDPSession(page);
    const { targetInfo } = await session.send('Target.getTargetInfo');
    return new PageTargets(session, toInfo(targetInfo));
  }

  /** Every target of the browser (the caller picks the page's own: see relatedTargets). */
  async list(): Promise<TargetInfo[]> {
    const { targetInfos } = await this.session.send('Target.getTargets');
    return targetInfos.map(toInfo);
  }

  /** A sender of commands to the page itself. */
  toPage(): Send {
    // Playwright types send() per protocol method; the bench sends a few, named at run time.
    const send = this.session.send.bind(this.session) as unknown as (method: string, params?: object) => Promise<unknown>;
    return (method, params = {}, timeoutMs = defaultTimeoutMs) => withTimeout(send(method, params), timeoutMs);
  }

  /** Attaches to another target (a worker, a service worker) and answers a sender of commands to it. */
  async attach(targetId: string): Promise<Send> {
    const { sessionId } = await this.session.send('Target.attachToTarget', { targetId, flatten: false });
    this.attached.push(sessionId);
    return (method, params = {}, timeoutMs = defaultTimeoutMs) => {
      const id = this.nextId++;
      const answered = new Promise<unknown>((resolve) => this.answers.set(id, resolve));
      const sent = this.session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
      return withTimeout(
        sent.then(() => answered),
        timeoutMs,
      ).finally(() => this.answers.delete(id));
    };
  }

  /** Detaches from every target attached and ends the page's session. */
  async close(): Promise<void> {
    for (const sessionId of this.attached) await withTimeout(this.session.send('Target.detachFromTarget', { sessionId }), 5_000);
    await this.session.detach().catch(() => undefined);
  }
}
