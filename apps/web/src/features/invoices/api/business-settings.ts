import { etagOf, settingsRoutes, type BusinessSettings, type BusinessSettingsInput } from '@otto/api-contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiClientError, callApi } from '../../../lib/api-client';
import { changedWhere } from '../../../lib/live/changed-where';
import { settingsKeys } from '../../../lib/query-keys';

/** The business's details, invoice prefix, default tax rate and terms, and the next invoice number. */
export function useBusinessSettings() {
  return useQuery({
    queryKey: settingsKeys.business(),
    queryFn: async ({ signal }) => (await callApi(settingsRoutes.getBusiness, { signal })).data,
  });
}

/** Saves the business's details over the version shown (If-Match). */
export function useSaveBusinessSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, version }: { input: BusinessSettingsInput; version: number }): Promise<BusinessSettings> => {
      try {
        return (await callApi(settingsRoutes.putBusiness, { body: input, headers: { 'if-match': etagOf(version) } })).data;
      } catch (error) {
        if (error instanceof ApiClientError && error.status === 412) {
          void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
          throw new ApiClientError(
            'HTTP_ERROR',
            `The business details were changed ${changedWhere}, so your changes were not saved yet. Look at them again, then save.`,
            412,
            error.data,
          );
        }
        throw error;
      }
    },
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.business(), saved),
  });
}
