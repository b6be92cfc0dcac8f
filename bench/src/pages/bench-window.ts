// What each bench page exposes to the Node runner (page.evaluate calls these).
import type { DirectResult, DirectRun } from '../shared/messages';
import type { LoopPlan, Samples } from '../shared/ops';

export interface BenchWindow {
  /** Resolves when the page can take requests (backend started, service worker in control). */
  ready?: Promise<unknown>;
  /** Times `fetch('/api/…')` from the page for every operation of the plan. */
  runFetchLoops?: (plan: LoopPlan) => Promise<Samples>;
  /** Times the tab → DB worker hop alone (no service worker), with backend.fetch. */
  runBackendLoops?: (plan: LoopPlan) => Promise<Samples>;
  /** Runs the direct benchmark in a worker. */
  runDirect?: (run: DirectRun) => Promise<DirectResult>;
  /** Creates `k` quote jobs for `jobs-move` through the page's fetch; resolves to their ids. */
  makeMoveJobs?: (k: number) => Promise<string[]>;
  crossOriginIsolated?: boolean;
}

declare global {
  interface Window {
    bench: BenchWindow;
  }
}
