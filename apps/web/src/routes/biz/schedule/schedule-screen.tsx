import { calendarDaySchema } from '@otto/api-contract';
import { Button, PageHeader, SegmentedNav } from '@otto/ui';
import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { perCell, scheduleOptions, unscheduledOptions } from '../../../features/schedule/api/schedule-api';
import { ScheduleWorkspace } from '../../../features/schedule/components/schedule-workspace';
import { addDays, dayOf, daysFrom, mondayOf } from '../../../features/schedule/schedule-time';
import { rangeLabel } from '../../../features/schedule/schedule-words';
import '../../../features/schedule/components/schedule.css';
import { browserTimeZone } from '../../../lib/browser-time-zone';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** What the URL asks for: the view and the days it shows. */
function schedulePlace(searchParams: URLSearchParams, timeZone: string) {
  const view = searchParams.get('view') === 'day' ? ('day' as const) : ('week' as const);
  const parsed = calendarDaySchema.safeParse(searchParams.get('date'));
  const today = dayOf(Date.now(), timeZone);
  const date = parsed.success ? parsed.data : today;
  const first = view === 'week' ? mondayOf(date) : date;
  return { view, date, today, days: daysFrom(first, view === 'week' ? 7 : 1, timeZone) };
}

/** The schedule's first data, asked for while the screen first renders (lazyScreen's prefetch). */
export function prefetch(queryClient: QueryClient, url: URL): void {
  const timeZone = browserTimeZone();
  const { view, days } = schedulePlace(url.searchParams, timeZone);
  void queryClient.prefetchQuery(scheduleOptions({ tz: timeZone, start: days[0]?.key ?? '', days: days.length, perCell: perCell[view] }));
  void queryClient.prefetchQuery(unscheduledOptions());
}

const narrowQuery = '(max-width: 47.99rem)';
function subscribe(onChange: () => void) {
  const query = window.matchMedia(narrowQuery);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** A phone's width: the schedule is an agenda list there. */
function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(narrowQuery).matches, () => false);
}

export default function ScheduleScreen() {
  useDocumentTitle('Schedule');
  const [searchParams, setSearchParams] = useSearchParams();
  const timeZone = browserTimeZone();
  const { view, date, today, days } = schedulePlace(searchParams, timeZone);
  const narrow = useNarrow();
  const go = (next: { view?: 'day' | 'week'; date?: string }) => {
    const href = paths.schedule.href({ view: next.view ?? view, date: next.date ?? date });
    setSearchParams(new URL(href, window.location.origin).searchParams);
  };
  const step = view === 'week' ? 7 : 1;
  return (
    <>
      <PageHeader title="Schedule" description="Who is where, and when. Drag jobs to plan the week." />
      <div className="sched-toolbar">
        <div className="sched-toolbar__move" role="group" aria-label="Choose the days">
          <Button variant="secondary" size="sm" onClick={() => go({ date: addDays(date, -step) })}>
            {view === 'week' ? 'Previous week' : 'Previous day'}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => go({ date: today })}>
            Today
          </Button>
          <Button variant="secondary" size="sm" onClick={() => go({ date: addDays(date, step) })}>
            {view === 'week' ? 'Next week' : 'Next day'}
          </Button>
        </div>
        <h2 className="sched-toolbar__range" aria-live="polite">
          {rangeLabel(days)}
        </h2>
        <SegmentedNav
          label="View"
          items={[
            { key: 'day', label: 'Day', active: view === 'day', onSelect: () => go({ view: 'day' }) },
            { key: 'week', label: 'Week', active: view === 'week', onSelect: () => go({ view: 'week' }) },
          ]}
        />
      </div>
      <ScheduleWorkspace view={view} days={days} timeZone={timeZone} narrow={narrow} />
    </>
  );
}
