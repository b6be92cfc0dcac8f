// Backup and export on a device that syncs with a team server (decision 0169): no restore here, and
// words that say where a backup is restored instead; on its own, the app offers the restore.
import { ToastProvider } from '@otto/ui';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBackendHandle } from '../../../test/fake-backend-handle';
import { DataDialog } from './data-dialog';

function show() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <DataDialog backend={fakeBackendHandle()} onClose={() => {}} onRestored={() => {}} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllEnvs());

describe('Backup and export', () => {
  it('offers no restore on a device that syncs, and says where a backup is restored', () => {
    vi.stubEnv('VITE_OTTO_SYNC_URL', 'https://otto.example.com/api');
    show();
    expect(screen.queryByRole('button', { name: 'Restore from a backup…' })).toBeNull();
    expect(screen.getByText(/restore it on your team server/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download a backup' })).toBeTruthy();
  });

  it('offers the restore when the data is in this browser only', () => {
    show();
    expect(screen.getByRole('button', { name: 'Restore from a backup…' })).toBeTruthy();
    expect(screen.queryByText(/restore it on your team server/)).toBeNull();
  });
});
