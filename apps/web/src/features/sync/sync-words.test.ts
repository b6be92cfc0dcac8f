import { describe, expect, it } from 'vitest';
import { syncSummary } from './sync-status';
import { describeNotice } from './sync-words';

const state = { waiting: 0, waitingList: [], notices: [], lastSyncedAt: null, offlineSince: null, problem: null, firstSync: false, pulled: 0, syncing: false, updateRequired: false };

describe('the sync line', () => {
  it('says what a person needs to know, in words', () => {
    expect(syncSummary(undefined)).toBe('Connecting to the team server…');
    expect(syncSummary({ ...state, firstSync: true, pulled: 12_000 })).toBe(`Downloading your data… ${(12_000).toLocaleString()} records so far`);
    expect(syncSummary({ ...state, updateRequired: true, waiting: 2 })).toBe('Otto was updated on your team server: reload to update this device (2 changes waiting here, sent after the update).');
    expect(syncSummary({ ...state, firstSync: true, offlineSince: 1, problem: 'Failed to fetch' })).toBe('Waiting for the team server to download your data (Failed to fetch).');
    expect(syncSummary({ ...state, offlineSince: Date.UTC(2026, 10, 27, 9, 5), waiting: 3 })).toMatch(/^Offline since .+ · 3 changes waiting · saved on this device$/);
    expect(syncSummary({ ...state, waiting: 1 })).toBe('1 change waiting to sync');
    expect(syncSummary({ ...state, lastSyncedAt: Date.UTC(2026, 10, 27, 9, 5) })).toMatch(/^Synced /);
  });
});

describe('a change in words', () => {
  const notice = (method: string, path: string, body: unknown, message?: string) => ({
    requestId: 'r1',
    method,
    path,
    body,
    madeAt: 0,
    ...(message ? { answer: { status: 409, body: { code: 'CONFLICT', message } } } : {}),
  });
  it('names what it was, why it was refused, and where its record is', () => {
    expect(describeNotice(notice('POST', '/jobs/12/move', { status: 'cancelled' }, 'A job that is scheduled cannot move to cancelled.'))).toEqual({
      what: 'Moving job 12 to Cancelled',
      why: 'A job that is scheduled cannot move to cancelled.',
      href: '/biz/jobs/edit?id=12',
      yours: [],
    });
    // What the person wrote stays with the notice, to apply again.
    expect(describeNotice(notice('PATCH', '/jobs/12', { description: 'Replaced the valve', price_cents: 100 }, 'Changed elsewhere.')).yours).toEqual([
      { label: 'Description', text: 'Replaced the valve' },
    ]);
    expect(describeNotice(notice('POST', '/customers', { full_name: 'Ada' }))).toMatchObject({ what: 'New customer “Ada”', why: '', href: undefined });
    expect(describeNotice(notice('PUT', '/customers/7', { full_name: 'Ada B' }))).toMatchObject({ what: 'Changes to customer “Ada B”', href: '/biz/customers/edit/7' });
    expect(describeNotice(notice('DELETE', '/jobs/9', null))).toMatchObject({ what: 'Deleting job 9', href: undefined });
    expect(describeNotice(notice('POST', '/imports/last/undo', {}))).toMatchObject({ what: 'Undoing the last import' });
    // Never a method, a path or a status code on screen, even for a write it has no words for.
    expect(describeNotice({ ...notice('PATCH', '/something/new', {}), answer: { status: 500, body: null } })).toMatchObject({
      what: 'A change',
      why: 'The team server refused it without saying why.',
    });
  });
});
