import { jobRoutes, type Job, type JobInput } from '@otto/api-contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { jobKeys } from '../../../lib/query-keys';

function refresh(queryClient: QueryClient, job: Job) {
  queryClient.setQueryData(jobKeys.detail(job.id), job);
  // Lists, counts and every customer's job list.
  return queryClient.invalidateQueries({ queryKey: jobKeys.all, predicate: (q) => q.queryKey[1] !== 'detail' });
}

/** Creates a job; job lists and counts (a customer's included) are refetched. */
export function useCreateJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: JobInput) => (await callApi(jobRoutes.create, { body: input })).data,
    onSuccess: (job) => refresh(queryClient, job),
  });
}

/**
 * Saves every field of a job (PUT: safe to send again if the tab owning the database changes
 * mid-save); the lists, counts and that job are refetched.
 */
export function useUpdateJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, fields }: { id: string; fields: JobInput }) =>
      (await callApi(jobRoutes.update, { params: { id }, body: fields })).data,
    onSuccess: (job) => refresh(queryClient, job),
  });
}
