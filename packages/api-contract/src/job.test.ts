import { describe, expect, it } from 'vitest';
import { canMoveJob, jobInputSchema, jobPatchSchema, jobStatuses, jobTransitions } from './job';

describe('job lifecycle', () => {
  it('makes paid final and lets a cancelled job be restored as a quote', () => {
    expect(jobTransitions.paid).toEqual([]);
    expect(canMoveJob('cancelled', 'quote')).toBe(true);
    expect(canMoveJob('paid', 'cancelled')).toBe(false);
    expect(canMoveJob('quote', 'paid')).toBe(false);
  });

  it('only names statuses that exist', () => {
    for (const next of Object.values(jobTransitions).flat()) expect(jobStatuses).toContain(next);
  });
});

describe('jobInputSchema', () => {
  it('fills the optional fields with their defaults', () => {
    expect(jobInputSchema.parse({ customer_id: '3', title: ' Fix the sink ' })).toEqual({
      customer_id: '3',
      title: 'Fix the sink',
      description: '',
      service_address: '',
      status: 'quote',
      assignee: '',
      scheduled_start_dt: null,
      scheduled_end_dt: null,
      price_cents: 0,
    });
  });

  it('rejects a negative or fractional price and a long title', () => {
    const result = jobInputSchema.safeParse({ customer_id: '3', title: 'x'.repeat(121), price_cents: -1.5 });
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['title', 'price_cents']));
  });

  it('rejects an end before the start, and an end without a start', () => {
    const before = jobInputSchema.safeParse({ customer_id: '3', title: 'T', scheduled_start_dt: 2000, scheduled_end_dt: 1000 });
    expect(before.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['scheduled_end_dt', 'The end cannot be before the start.'],
    ]);
    const endOnly = jobInputSchema.safeParse({ customer_id: '3', title: 'T', scheduled_end_dt: 1000 });
    expect(endOnly.error!.issues.map((i) => i.path.join('.'))).toEqual(['scheduled_start_dt']);
  });

  it('leaves absent fields out of a patch', () => {
    expect(jobPatchSchema.parse({ status: 'completed' })).toEqual({ status: 'completed' });
  });
});
