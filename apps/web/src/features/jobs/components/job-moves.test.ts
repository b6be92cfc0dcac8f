import { jobTransitions, type JobStatus } from '@otto/api-contract';
import { describe, expect, it } from 'vitest';
import { moveLabel } from './job-moves';

describe('moveLabel', () => {
  it('names every allowed move as the issue asks, and the backward ones as going back', () => {
    const labels = Object.fromEntries(
      (Object.keys(jobTransitions) as JobStatus[]).map((from) => [from, jobTransitions[from].map((to) => moveLabel(from, to))]),
    );
    expect(labels).toEqual({
      quote: ['Schedule', 'Cancel'],
      scheduled: ['Start', 'Back to quote', 'Cancel'],
      in_progress: ['Complete', 'Back to scheduled', 'Cancel'],
      completed: ['Invoice', 'Back to in progress'],
      invoiced: ['Mark paid', 'Back to completed'],
      paid: [],
      cancelled: ['Reopen as quote'],
    });
  });
});
