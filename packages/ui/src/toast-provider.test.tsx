import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from './toast-provider';
import { useToast } from './use-toast';
import type { ToastOptions } from './toast-context';

function ShowButton({ message, options }: { message: string; options?: ToastOptions }) {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast.show(message, options)}>
      Show
    </button>
  );
}

describe('ToastProvider', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a toast in a polite live region, then removes it after its duration', () => {
    render(
      <ToastProvider>
        <ShowButton message="Customer saved" options={{ tone: 'success', durationMs: 3000 }} />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));

    const message = screen.getByText('Customer saved');
    expect(message.closest('[role="status"]')).not.toBeNull();

    act(() => vi.advanceTimersByTime(2999));
    expect(screen.queryByText('Customer saved')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Customer saved')).toBeNull();
  });

  it('removes a toast at once with its dismiss button', () => {
    render(
      <ToastProvider>
        <ShowButton message="Saved" />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('pauses the timer while the pointer is over the toast', () => {
    render(
      <ToastProvider defaultDurationMs={1000}>
        <ShowButton message="Saved" />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    const toast = screen.getByText('Saved').closest<HTMLElement>('.otto-toast')!;

    act(() => vi.advanceTimersByTime(600));
    fireEvent.mouseEnter(toast);
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByText('Saved')).not.toBeNull();

    fireEvent.mouseLeave(toast);
    act(() => vi.advanceTimersByTime(400));
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('keeps one toast per kind on screen: a new one replaces the old', () => {
    render(
      <ToastProvider>
        <ShowButton message="Saved" options={{ tone: 'success' }} />
      </ToastProvider>,
    );
    for (let i = 0; i < 3; i += 1) fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getAllByText('Saved')).toHaveLength(1);
  });

  it('keeps toasts of different kinds side by side', () => {
    function Two() {
      const toast = useToast();
      return (
        <button type="button" onClick={() => { toast.show('Saved', { tone: 'success' }); toast.show('Archived', { kind: 'undo' }); }}>
          Show
        </button>
      );
    }
    render(
      <ToastProvider>
        <Two />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByText('Saved')).not.toBeNull();
    expect(screen.getByText('Archived')).not.toBeNull();
  });

  it('reads errors at once (role alert) and runs an action button, then closes', () => {
    const onAction = vi.fn();
    render(
      <ToastProvider>
        <ShowButton message="Not saved" options={{ tone: 'error', action: { label: 'Undo', onAction } }} />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByText('Not saved').closest('[role="alert"]')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(onAction).toHaveBeenCalledOnce();
    expect(screen.queryByText('Not saved')).toBeNull();
  });

  it('throws a helpful error when useToast has no provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ShowButton message="x" />)).toThrow(/no ToastProvider/);
    vi.restoreAllMocks();
  });
});
