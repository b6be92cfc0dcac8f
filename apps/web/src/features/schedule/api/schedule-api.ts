import { etagOf, jobRoutes, type Job, type JobPatch, type Schedule, type ScheduleJob, type ScheduleParams } from '@otto/api-contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
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

/** True when a job on the calendar falls within a schedule answer's days. */
function inDays(schedule: Schedule, job: ScheduleJob): boolean {
  const from = schedule.days[0]?.start_dt;
  const before = schedule.days.at(-1)?.end_dt;
  const start = job.scheduled_start_dt;
  return from !== undefined && before !== undefined && start !== null && start < before && (job.scheduled_end_dt ?? start) > from;
}

/** Shows a placement in every cached schedule answer at once (the job leaves the ones it is no longer in). */
function showPlaced(queryClient: QueryClient, job: ScheduleJob): void {
  for (const [key, schedule] of queryClient.getQueriesData<Schedule>({ queryKey: jobKeys.schedules() })) {
    if (!schedule) continue;
    const others = schedule.jobs.filter((j) => j.id !== job.id);
    queryClient.setQueryData<Schedule>(key, { ...schedule, jobs: inDays(schedule, job) ? [...others, job] : others });
  }
}

/**
 * The jobs of a schedule answer with the placements not saved yet laid over them: an answer read
 * while a burst of moves is still saving (the change feed of this tab's own first save) must not
 * put a job back where it was a moment ago.
 * @example
 * const jobs = withPending(schedule, pending);
 */
export function withPending(schedule: Schedule, pending: ReadonlyMap<string, ScheduleJob>): ScheduleJob[] {
  if (pending.size === 0) return schedule.jobs;
  const jobs = schedule.jobs.filter((j) => !pending.has(j.id));
  for (const job of pending.values()) if (inDays(schedule, job)) jobs.push(job);
  return jobs;
}

/** A placement of a burst that is not sent: an earlier one of the same job was refused. */
class SkippedPlacement extends Error {}

type Queued = Placement & { seq: number };

/**
 * Moves, resizes or places a job (PATCH, If-Match). The schedule shows the new place at once
 * (`pending`, laid over every answer until its save is done); the saves run one after another (a
 * mutation scope), each over the version the one before produced, so keys pressed quickly all
 * count. A refusal says why (a job changed in another tab: 412), drops the job's moves queued after
 * it, and the schedule is read again at once; once the last save is done, every list and range is.
 */
export function usePlaceJob(report: { onSaved: (job: Job, placement: Placement) => void; onFailed: (error: Error) => void }) {
  const queryClient = useQueryClient();
  const versions = useRef(new Map<string, number>());
  const refusedUpTo = useRef(new Map<string, number>());
  const issued = useRef(0);
  const latest = useRef(report);
  latest.current = report;
  const [pending, setPending] = useState<ReadonlyMap<string, ScheduleJob & { seq: number }>>(new Map());
  const settle = (id: string, seq: number | 'all') =>
    setPending((now) => {
      const mine = now.get(id);
      if (!mine || (seq !== 'all' && mine.seq !== seq)) return now;
      const next = new Map(now);
      next.delete(id);
      return next;
    });
  const mutation = useMutation({
    mutationKey: placeKey,
    scope: { id: 'schedule-place' },
    mutationFn: async (placement: Queued): Promise<Job> => {
      const { job } = placement;
      if (placement.seq <= (refusedUpTo.current.get(job.id) ?? 0)) throw new SkippedPlacement('skipped');
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
      settle(job.id, placement.seq);
      latest.current.onSaved(job, placement);
    },
    onError: (error, placement) => {
      settle(placement.job.id, 'all');
      if (error instanceof SkippedPlacement) return;
      // The moves of this job queued behind it were made from the place it did not get.
      refusedUpTo.current.set(placement.job.id, issued.current);
      versions.current.delete(placement.job.id);
      latest.current.onFailed(error);
      void queryClient.invalidateQueries({ queryKey: jobKeys.schedules() });
      void queryClient.invalidateQueries({ queryKey: jobKeys.detail(placement.job.id) });
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
  const place = useCallback(
    (placement: Placement) => {
      const seq = ++issued.current;
      const placed = { ...placement.job, ...placementPatch(placement) } as ScheduleJob;
      void queryClient.cancelQueries({ queryKey: jobKeys.schedules() });
      showPlaced(queryClient, placed);
      setPending((now) => new Map(now).set(placed.id, { ...placed, seq }));
      mutate({ ...placement, seq });
    },
    [mutate, queryClient],
  );
  return { place, pending };
}
