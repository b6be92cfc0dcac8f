import { customerRoutes, jobRoutes } from '@otto/api-contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { customerKeys, jobKeys } from '../../../lib/query-keys';

/** How many customers and how many jobs the palette shows for one search. */
export const paletteResultLimit = 6;

/**
 * Customers and jobs matching `text` through the API's full-text search, for the command palette.
 * Nothing is asked for while `text` is blank.
 */
export function usePaletteSearch(text: string) {
  const queryText = text.trim();
  const enabled = queryText !== '';
  const customerParams = { queryText, limit: paletteResultLimit };
  const jobParams = { queryText, limit: paletteResultLimit };
  const customers = useQuery({
    queryKey: customerKeys.list(customerParams),
    queryFn: async ({ signal }) => (await callApi(customerRoutes.list, { filter: customerParams, signal })).data,
    enabled,
  });
  const jobs = useQuery({
    queryKey: jobKeys.list(jobParams),
    queryFn: async ({ signal }) => (await callApi(jobRoutes.list, { filter: jobParams, signal })).data,
    enabled,
  });
  return { customers, jobs, enabled };
}
