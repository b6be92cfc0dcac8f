import { reportRoutes } from '@otto/api-contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { browserTimeZone } from '../../../lib/browser-time-zone';
import { reportKeys } from '../../../lib/query-keys';

export function summaryOptions(tz: string) {
  return queryOptions({
    queryKey: reportKeys.summary(tz),
    queryFn: async ({ signal }) => (await callApi(reportRoutes.summary, { filter: { tz }, signal })).data,
  });
}

/** The Overview's figures, in this browser's time zone; refetched when any customer or job changes. */
export function useSummary() {
  return useQuery(summaryOptions(browserTimeZone()));
}
