import { makeMoveJobs, runLoops, type BenchRequest, type LoopPlan, type Samples } from '../shared/ops';

/** Sends one request with the page's fetch (through whatever service worker controls it) and reads the JSON. */
export async function pageFetch(request: BenchRequest): Promise<{ status: number }> {
  const response = await fetch(request.path, {
    method: request.method,
    ...(request.body ? { body: request.body, headers: { 'content-type': 'application/json' } } : {}),
  });
  await response.json();
  return response;
}

export function runFetchLoops(plan: LoopPlan): Promise<Samples> {
  return runLoops(plan, pageFetch);
}

/** Creates the jobs `jobs-move` moves, through the page's fetch. */
export function makeMoveJobsHere(k: number): Promise<string[]> {
  return makeMoveJobs(
    (request) =>
      fetch(request.path, {
        method: request.method,
        ...(request.body ? { body: request.body, headers: { 'content-type': 'application/json' } } : {}),
      }),
    k,
  );
}
