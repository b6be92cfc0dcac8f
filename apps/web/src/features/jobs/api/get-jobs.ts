import { jobRoutes, type JobListParams } from '@otto/api-contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { jobKeys } from '../../../lib/query-keys';

export function jobsOptions(params: JobListParams) {
  return queryOptions({
    queryKey: jobKeys.list(params),
    queryFn: ({ signal }) => callApi(jobRoutes.list, { filter: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** One page of jobs and the total. */
export function useJobs(params: JobListParams) {
  return useQuery(jobsOptions(params));
}
