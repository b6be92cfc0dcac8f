// Hosts the direct benchmark's worker; the timing happens inside the worker.
import type { DirectResult, DirectRun, DirectWorkerReply } from '../shared/messages';
import './bench-window';

function runDirect(run: DirectRun): Promise<DirectResult> {
  const worker = new Worker(new URL('../workers/direct.worker.ts', import.meta.url), { type: 'module', name: 'bench-direct' });
  return new Promise<DirectResult>((resolve, reject) => {
    worker.addEventListener('message', (event: MessageEvent<DirectWorkerReply>) => {
      if (event.data.type === 'done') resolve(event.data.result);
      else reject(new Error(event.data.message));
    });
    worker.addEventListener('error', (event) => reject(new Error(`direct worker: ${event.message}`)));
    worker.postMessage({ type: 'run', run });
  }).finally(() => worker.terminate());
}

window.bench = { crossOriginIsolated: window.crossOriginIsolated, ready: Promise.resolve(), runDirect };
