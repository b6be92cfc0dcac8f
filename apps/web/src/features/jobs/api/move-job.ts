import { etagOf, jobRoutes, type Job, type JobStatus } from '@otto/api-contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { jobKeys } from '../../../lib/query-keys';

function refresh(queryClient: QueryClient, job: Job) {
  queryClient.setQueryData(jobKeys.detail(job.id), job);
  return queryClient.invalidateQueries({ queryKey: jobKeys.all, predicate: (q) => q.queryKey[1] !== 'detail' });
}

export interface MoveJobVariables {
  job: Job;
  status: JobStatus;
  scheduled_start_dt?: number;
}

/** One-click status move (decision 0092), over the version shown (If-Match). */
export function useMoveJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ job, status, scheduled_start_dt }: MoveJobVariables): Promise<Job> =>
      (
        await callApi(jobRoutes.move, {
          params: { id: job.id },
          body: { status, ...(scheduled_start_dt !== undefined ? { scheduled_start_dt } : {}) },
          headers: { 'if-match': etagOf(job.modified_dt) },
        })
      ).data,
    onSuccess: (job) => refresh(queryClient, job),
    onError: (_error, { job }) => queryClient.invalidateQueries({ queryKey: jobKeys.detail(job.id) }),
  });
}

/** Undoes exactly the move that produced `version`. */
export function useRevertJobMove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, version }: { id: string; version: number }): Promise<Job> =>
      (await callApi(jobRoutes.revert, { params: { id }, body: { version } })).data,
    onSuccess: (job) => refresh(queryClient, job),
  });
}
