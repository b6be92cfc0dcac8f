import { jobRoutes } from '@otto/api-contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { jobKeys } from '../../../lib/query-keys';

export function useJob(id: string) {
  return useQuery({
    queryKey: jobKeys.detail(id),
    queryFn: async ({ signal }) => (await callApi(jobRoutes.get, { params: { id }, signal })).data,
    enabled: id !== '',
  });
}
