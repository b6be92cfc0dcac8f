import { customerRoutes, etagOf, jobRoutes, type Customer, type CustomerDuplicate, type Job } from '@otto/api-contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { customerKeys, jobKeys, reportKeys } from '../../lib/query-keys';

/** Archiving, restoring or deleting changes lists, searches, counts and pickers of both kinds. */
function refreshAll(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: customerKeys.all }),
    queryClient.invalidateQueries({ queryKey: jobKeys.all }),
    queryClient.invalidateQueries({ queryKey: reportKeys.all }),
  ]);
}

/** Under the list prefixes, so the change feed's invalidations (another tab archiving) reach them. */
export const archivedKeys = {
  customers: (offset: number) => [...customerKeys.lists(), 'archived', offset] as const,
  jobs: (offset: number) => [...jobKeys.lists(), 'archived', offset] as const,
};

const version = (modified?: number) => (modified !== undefined ? { headers: { 'if-match': etagOf(modified) } } : {});

/**
 * Archive (`archive: true`) or restore a customer or a job; Undo of one is the other.
 * @example
 * const archive = useSetArchived('job');
 * await archive.mutateAsync({ id: '7', archive: true });
 */
export function useSetArchived(kind: 'customer' | 'job') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, archive }: { id: string; archive: boolean }): Promise<Customer | Job> => {
      const routes = kind === 'customer' ? customerRoutes : jobRoutes;
      return (await callApi(archive ? routes.archive : routes.restore, { params: { id } })).data;
    },
    onSuccess: (record) => {
      queryClient.setQueryData((kind === 'customer' ? customerKeys : jobKeys).detail(record.id), record);
      return refreshAll(queryClient);
    },
  });
}

/** Deletes an archived customer or job for good (over the version shown, when given). */
export function useDeleteForGood() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ kind, id, modified }: { kind: 'customer' | 'job'; id: string; modified?: number }) => {
      await callApi(kind === 'customer' ? customerRoutes.remove : jobRoutes.remove, { params: { id }, ...version(modified) });
    },
    onSuccess: () => refreshAll(queryClient),
  });
}

export const archivedPageSize = 20;

export function useArchivedCustomers(offset: number) {
  return useQuery({
    queryKey: archivedKeys.customers(offset),
    queryFn: ({ signal }) => callApi(customerRoutes.list, { filter: { archived: true, limit: archivedPageSize, offset }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useArchivedJobs(offset: number) {
  return useQuery({
    queryKey: archivedKeys.jobs(offset),
    queryFn: ({ signal }) => callApi(jobRoutes.list, { filter: { archived: true, limit: archivedPageSize, offset }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Customers who already have this email or phone number (the duplicate warning). */
export async function findDuplicates(input: { email: string; phone: string }): Promise<CustomerDuplicate[]> {
  return (await callApi(customerRoutes.duplicates, { filter: { email: input.email, phone: input.phone } })).data;
}
