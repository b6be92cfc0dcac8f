import { describe, expect, it } from 'vitest';
import { customerKeys } from '../query-keys';
import { changeInvalidations } from './change-invalidations';

describe('changeInvalidations', () => {
  it('invalidates the customer lists for a create (spec section 7)', () => {
    expect(changeInvalidations([{ entity: 'customer', kind: 'created', ids: ['7'] }])).toEqual([['reports'], ['customers', 'list']]);
  });

  it('invalidates the lists, that customer, and job rows and details (they show the name) for an update', () => {
    expect(changeInvalidations([{ entity: 'customer', kind: 'updated', ids: ['7'] }])).toEqual([
      ['reports'],
      ['customers', 'list'],
      ['jobs', 'list'],
      ['jobs', 'schedule'],
      ['jobs', 'detail'],
      ['invoices'],
      ['customers', 'detail', '7'],
    ]);
  });

  it("reaches that customer's notes and service addresses with an update (their key is under the customer's)", () => {
    const keys = changeInvalidations([{ entity: 'customer', kind: 'updated', ids: ['7'] }]);
    const covered = (key: readonly unknown[]) => keys.some((prefix) => prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i])));
    expect(covered(customerKeys.notesAndAddresses('7'))).toBe(true);
    expect(covered(customerKeys.notesAndAddresses('8'))).toBe(false);
  });

  it('invalidates job lists (a customer’s included), counts, the schedule and that job for a job update or status move', () => {
    expect(changeInvalidations([{ entity: 'job', kind: 'updated', ids: ['3'] }])).toEqual([
      ['reports'],
      ['jobs', 'list'],
      ['jobs', 'counts'],
      ['jobs', 'schedule'],
      ['invoices', 'list'],
      ['jobs', 'detail', '3'],
    ]);
    expect(changeInvalidations([{ entity: 'job', kind: 'created', ids: ['4'] }])).toEqual([
      ['reports'],
      ['jobs', 'list'],
      ['jobs', 'counts'],
      ['jobs', 'schedule'],
      ['invoices', 'list'],
    ]);
  });

  it('names each key once for a burst, and falls back to the whole entity for many records', () => {
    const burst = Array.from({ length: 200 }, (_, i) => ({ entity: 'customer' as const, kind: 'created' as const, ids: [String(i)] }));
    expect(changeInvalidations(burst)).toEqual([['reports'], ['customers', 'list']]);
    const updates = Array.from({ length: 30 }, (_, i) => ({ entity: 'job' as const, kind: 'updated' as const, ids: [String(i)] }));
    expect(changeInvalidations(updates)).toEqual([['reports'], ['invoices', 'list'], ['jobs']]);
  });

  it('invalidates everything of a kind for a change without ids', () => {
    expect(changeInvalidations([{ entity: 'customer', kind: 'updated', ids: [] }])).toEqual([['reports'], ['jobs', 'list'], ['jobs', 'schedule'], ['jobs', 'detail'], ['invoices'], ['customers']]);
  });

  it('invalidates invoice lists and that invoice, and the jobs (their status follows it), for an invoice change', () => {
    expect(changeInvalidations([{ entity: 'invoice', kind: 'updated', ids: ['5'] }])).toEqual([
      ['reports'],
      ['invoices', 'list'],
      ['jobs', 'list'],
      ['jobs', 'counts'],
      ['jobs', 'detail'],
      ['invoices', 'detail', '5'],
    ]);
    expect(changeInvalidations([{ entity: 'invoice', kind: 'created', ids: ['6'] }])).toEqual([
      ['reports'],
      ['invoices', 'list'],
      ['jobs', 'list'],
      ['jobs', 'counts'],
      ['jobs', 'detail'],
    ]);
  });

  it('invalidates the business details and invoice lists for a settings change, not the Overview', () => {
    expect(changeInvalidations([{ entity: 'settings', kind: 'updated', ids: [] }])).toEqual([['settings'], ['invoices', 'list']]);
  });

  it('makes the Overview stale for any customer or job change, and for nothing else', () => {
    for (const entity of ['customer', 'job', 'invoice'] as const) {
      for (const kind of ['created', 'updated', 'deleted'] as const) {
        expect(changeInvalidations([{ entity, kind, ids: ['1'] }])).toContainEqual(['reports']);
      }
    }
    expect(changeInvalidations([{ entity: 'database', kind: 'reset', ids: [] }])).toEqual([]);
  });
});
