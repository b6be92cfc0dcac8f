import { jobRoutes, type JobListParams } from '@otto/api-contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { jobKeys } from '../../../lib/query-keys';

export type JobCountParams = Omit<JobListParams, 'status' | 'limit' | 'offset'>;

export function jobCountsOptions(params: JobCountParams) {
  return queryOptions({
    queryKey: jobKeys.counts(params),
    queryFn: async ({ signal }) => (await callApi(jobRoutes.counts, { filter: params, signal })).data,
    placeholderData: keepPreviousData,
  });
}

/** How many jobs match per status, for the status tabs. */
export function useJobCounts(params: JobCountParams) {
  return useQuery(jobCountsOptions(params));
}
