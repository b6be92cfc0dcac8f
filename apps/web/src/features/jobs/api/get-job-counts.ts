import { jobRoutes, type JobListParams } from '@otto/api-contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { jobKeys } from '../../../lib/query-keys';

/** How many jobs match per status, for the status tabs. */
export function useJobCounts(params: Omit<JobListParams, 'status' | 'limit' | 'offset'>) {
  return useQuery({
    queryKey: jobKeys.counts(params),
    queryFn: async ({ signal }) => (await callApi(jobRoutes.counts, { filter: params, signal })).data,
    placeholderData: keepPreviousData,
  });
}
