import type { Job } from '@otto/api-contract';
import { describe, expect, it } from 'vitest';
import { dayIndexOf, lanesOf, overlappingIds, pastAndOpen, rowsOf } from './schedule-layout';
import { daysFrom } from './schedule-time';

const hour = 3_600_000;
let next = 1;
function job(fields: Partial<Job>): Job {
  return {
    id: String(next++),
    customer_id: '1',
    customer_name: 'Zoë',
    title: 'Job',
    description: '',
    service_address: '',
    status: 'scheduled',
    assignee: '',
    scheduled_start_dt: 0,
    scheduled_end_dt: null,
    price_cents: 0,
    created_dt: 0,
    modified_dt: 0,
    status_dates: { quote: null, scheduled: null, in_progress: null, completed: null, invoiced: null, paid: null, cancelled: null },
    ...fields,
  };
}

describe('schedule layout', () => {
  it('puts the unassigned lane first, then the team, then names only the jobs carry', () => {
    expect(lanesOf(['Bo', 'Sam'], [job({ assignee: 'Sam' }), job({ assignee: 'Zed' })])).toEqual(['', 'Bo', 'Sam', 'Zed']);
  });

  it('finds the jobs of one person that meet, not those of two people', () => {
    const a = job({ assignee: 'Sam', scheduled_start_dt: 9 * hour, scheduled_end_dt: 11 * hour });
    const b = job({ assignee: 'Sam', scheduled_start_dt: 10 * hour, scheduled_end_dt: 12 * hour });
    const c = job({ assignee: 'Sam', scheduled_start_dt: 12 * hour, scheduled_end_dt: 13 * hour });
    const d = job({ assignee: 'Bo', scheduled_start_dt: 9 * hour, scheduled_end_dt: 11 * hour });
    // A job with no end lasts an hour on the schedule: 8:30 to 9:30 meets a.
    const e = job({ assignee: 'Sam', scheduled_start_dt: 8.5 * hour });
    expect([...overlappingIds([a, b, c, d, e])].sort()).toEqual([a.id, b.id, e.id].sort());
    const rows = rowsOf([a, b, c, e]);
    expect([rows.get(e.id), rows.get(a.id), rows.get(b.id), rows.get(c.id)]).toEqual([0, 1, 0, 0]);
  });

  it('shows a job on the day it starts, or the first day when it began before', () => {
    const days = daysFrom('2026-11-23', 7, 'UTC');
    const monday = Date.UTC(2026, 10, 23);
    expect(dayIndexOf(job({ scheduled_start_dt: monday + 2 * 24 * hour + 9 * hour }), days)).toBe(2);
    expect(dayIndexOf(job({ scheduled_start_dt: monday - 24 * hour }), days)).toBe(0);
    expect(dayIndexOf(job({ scheduled_start_dt: monday + 8 * 24 * hour }), days)).toBe(-1);
  });

  it('flags a job whose time has passed while it is still open', () => {
    const now = 100 * hour;
    expect(pastAndOpen(job({ scheduled_start_dt: 90 * hour, scheduled_end_dt: 95 * hour }), now)).toBe(true);
    expect(pastAndOpen(job({ status: 'in_progress', scheduled_start_dt: 99 * hour, scheduled_end_dt: 101 * hour }), now)).toBe(false);
    expect(pastAndOpen(job({ status: 'completed', scheduled_start_dt: 90 * hour }), now)).toBe(false);
  });
});
