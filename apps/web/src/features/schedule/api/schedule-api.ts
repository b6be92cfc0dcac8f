import { etagOf, jobRoutes, type Job, type JobPatch, type Schedule, type ScheduleJob, type ScheduleParams } from '@otto/api-contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { ApiClientError, callApi } from '../../../lib/api-client';
import { changedWhere } from '../../../lib/live/changed-where';
import { jobKeys } from '../../../lib/query-keys';

/** The jobs on the calendar over some days, the lanes, and how many more each person's day holds. */
export function scheduleOptions(params: ScheduleParams) {
  return queryOptions({
    queryKey: jobKeys.schedule(params),
    queryFn: async ({ signal }) => (await callApi(jobRoutes.schedule, { filter: params, signal })).data,
    placeholderData: keepPreviousData,
  });
}

export function useSchedule(params: ScheduleParams) {
  return useQuery(scheduleOptions(params));
}

/** Jobs per person per day: what a week's cell shows, and what a day's lane does. */
export const perCell = { week: 6, day: 40 } as const;

/** How many unscheduled jobs the panel lists at once. */
export const unscheduledPageSize = 50;

/** The jobs still to be put on the calendar (newest first) and how many there are. */
export function unscheduledOptions() {
  const filter = { unscheduled: true, limit: unscheduledPageSize };
  return queryOptions({
    queryKey: jobKeys.list(filter),
    queryFn: async ({ signal }) => {
      const { data, totalCount } = await callApi(jobRoutes.list, { filter, signal });
      return { jobs: data, total: totalCount ?? data.length };
    },
  });
}

export function useUnscheduled() {
  return useQuery(unscheduledOptions());
}

/** Where a job goes: its start, end and person; a quote placed on the calendar becomes scheduled. */
export interface Placement {
  job: ScheduleJob;
  start: number;
  end: number;
  assignee: string;
}

/** The fields a placement changes (PATCH). */
export function placementPatch({ job, start, end, assignee }: Placement): JobPatch {
  return {
    scheduled_start_dt: start,
    scheduled_end_dt: end,
    assignee,
    ...(job.status === 'quote' ? { status: 'scheduled' as const } : {}),
  };
}

const placeKey = ['schedule', 'place'];

/** Shows a placement in every cached schedule range at once (the job leaves the ranges it is no longer in). */
function showPlaced(queryClient: QueryClient, job: ScheduleJob): void {
  for (const [key, schedule] of queryClient.getQueriesData<Schedule>({ queryKey: jobKeys.schedules() })) {
    const from = schedule?.days[0]?.start_dt;
    const before = schedule?.days.at(-1)?.end_dt;
    if (!schedule || from === undefined || before === undefined) continue;
    const start = job.scheduled_start_dt;
    const inRange = start !== null && start < before && (job.scheduled_end_dt ?? start) > from;
    const others = schedule.jobs.filter((j) => j.id !== job.id);
    queryClient.setQueryData<Schedule>(key, { ...schedule, jobs: inRange ? [...others, job] : others });
  }
}

/**
 * Moves, resizes or places a job (PATCH, If-Match). The schedule shows the new place at once; the
 * saves run one after another (a mutation scope), each over the version the one before produced,
 * so keys pressed quickly all count. A refusal says why (a job changed in another tab: 412) and the
 * schedule is read again; once the last save is done, every job list and range is.
 */
export function usePlaceJob(report: { onSaved: (job: Job, placement: Placement) => void; onFailed: (error: Error) => void }) {
  const queryClient = useQueryClient();
  const versions = useRef(new Map<string, number>());
  const latest = useRef(report);
  latest.current = report;
  const mutation = useMutation({
    mutationKey: placeKey,
    scope: { id: 'schedule-place' },
    mutationFn: async (placement: Placement): Promise<Job> => {
      const { job } = placement;
      const version = Math.max(job.modified_dt, versions.current.get(job.id) ?? 0);
      try {
        return (await callApi(jobRoutes.patch, { params: { id: job.id }, body: placementPatch(placement), headers: { 'if-match': etagOf(version) } })).data;
      } catch (error) {
        if (error instanceof ApiClientError && error.status === 412) {
          throw new ApiClientError('HTTP_ERROR', `“${job.title}” was changed ${changedWhere}, so it was not moved. The schedule now shows it as it is.`, 412, error.data);
        }
        throw error;
      }
    },
    onSuccess: (job, placement) => {
      versions.current.set(job.id, job.modified_dt);
      queryClient.setQueryData(jobKeys.detail(job.id), job);
      latest.current.onSaved(job, placement);
    },
    onError: (error, placement) => {
      versions.current.delete(placement.job.id);
      latest.current.onFailed(error);
      return queryClient.invalidateQueries({ queryKey: jobKeys.detail(placement.job.id) });
    },
    onSettled: () => {
      // The last save of a burst: every list, count and range is read again (not returned, so the
      // next move need not wait for it).
      if (queryClient.isMutating({ mutationKey: placeKey }) <= 1) {
        void queryClient.invalidateQueries({ queryKey: jobKeys.all, predicate: (q) => q.queryKey[1] !== 'detail' });
      }
    },
  });
  const { mutate } = mutation;
  return useCallback(
    (placement: Placement) => {
      void queryClient.cancelQueries({ queryKey: jobKeys.schedules() });
      showPlaced(queryClient, { ...placement.job, ...placementPatch(placement) } as ScheduleJob);
      mutate(placement);
    },
    [mutate, queryClient],
  );
}
