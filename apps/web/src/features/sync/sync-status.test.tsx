// The sync panel as a person sees it: a change the team server kept failing shows why in words,
// with Try again (which asks the DB worker to send it again) and Dismiss; a change refused by a
// rule has no Try again. The DB worker's side is the real BroadcastChannel.
import { syncChannelName, type SyncMessage, type SyncStatus } from '@otto/mock-backend/browser';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { SyncStatusPanel } from './sync-status';

const worker = new BroadcastChannel(syncChannelName);
const heard: SyncMessage[] = [];
worker.onmessage = (event: MessageEvent<SyncMessage>) => void heard.push(event.data);
afterEach(() => void (heard.length = 0));

const state = (notices: SyncStatus['notices']): SyncStatus => ({
  waiting: 0,
  notices,
  waitingList: [],
  lastSyncedAt: Date.UTC(2026, 11, 7, 10, 42),
  offlineSince: null,
  problem: null,
  firstSync: false,
  pulled: 0,
  syncing: false,
  updateRequired: false,
});

describe('the sync panel', () => {
  it('offers Try again for a change the server kept failing, and only for it', async () => {
    render(
      <MemoryRouter>
        <SyncStatusPanel place="nav" />
      </MemoryRouter>,
    );
    await expect.poll(() => heard.some((m) => m.type === 'sync-now')).toBe(true);
    const failing = {
      requestId: 'dev-1:7', method: 'PUT', path: '/customers/12', body: { full_name: 'Ada Lovelace' }, madeAt: Date.now(), retry: true,
      answer: { status: 500, body: { code: 'SERVER_KEEPS_FAILING', message: 'The team server failed to save this change 3 times in a row. It is set aside so that your other changes go on: try it again later, or tell whoever runs the server.' } },
    };
    const refused = {
      requestId: 'dev-1:8', method: 'POST', path: '/jobs/9/move', body: { status: 'cancelled' }, madeAt: Date.now(),
      answer: { status: 409, body: { code: 'INVALID_TRANSITION', message: 'A job that is done cannot be cancelled.' } },
    };
    act(() => worker.postMessage({ type: 'sync-state', state: state([failing, refused]) } satisfies SyncMessage));
    expect(await screen.findByText('2 changes not saved')).toBeTruthy();
    expect(screen.getByText(/failed to save this change 3 times in a row/)).toBeTruthy();
    // Words only: no status code, method or path on screen.
    expect(document.body.textContent).not.toMatch(/\b(500|409)\b|PUT|\/customers\/12/);
    const retries = screen.getAllByRole('button', { name: 'Try again' });
    expect(retries).toHaveLength(1);
    await userEvent.click(retries[0]!);
    await expect.poll(() => heard.find((m) => m.type === 'sync-retry')).toEqual({ type: 'sync-retry', requestId: 'dev-1:7' });
    expect(screen.getAllByRole('button', { name: 'Dismiss' })).toHaveLength(2);
    // What was written in the change that was not saved is still there, to apply again.
    expect(screen.getByText('What you wrote')).toBeTruthy();
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();
  });
});
