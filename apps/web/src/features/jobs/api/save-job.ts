import { etagOf, jobRoutes, type Job, type JobInput } from '@otto/api-contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiClientError, callApi } from '../../../lib/api-client';
import { jobKeys } from '../../../lib/query-keys';
import { changedWhere } from '../../../lib/live/changed-where';

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
 * Saves every field of a job, over `version` (its `modified_dt`, sent as If-Match) when given.
 * A job changed meanwhile is not saved (412), and is refetched so the form can say so.
 */
async function updateJob({ id, fields, version }: { id: string; fields: JobInput; version?: number }): Promise<Job> {
  try {
    const headers = version !== undefined ? { headers: { 'if-match': etagOf(version) } } : {};
    return (await callApi(jobRoutes.update, { params: { id }, body: fields, ...headers })).data;
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 412) {
      throw new ApiClientError(
        'HTTP_ERROR',
        `This job was changed ${changedWhere}, so your changes were not saved yet. Load the new version or keep editing, then save again.`,
        412,
        error.data,
      );
    }
    throw error;
  }
}

/**
 * Saves every field of a job (PUT: safe to send again if the tab owning the database changes
 * mid-save); the lists, counts and that job are refetched.
 */
export function useUpdateJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateJob,
    onSuccess: (job) => refresh(queryClient, job),
    onError: (error, { id }) =>
      error instanceof ApiClientError && error.status === 412 ? queryClient.invalidateQueries({ queryKey: jobKeys.detail(id) }) : undefined,
  });
}
