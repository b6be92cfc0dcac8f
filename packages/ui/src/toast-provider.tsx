import { useCallback, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { ToastContext } from './toast-context';
import type { ToastApi, ToastOptions } from './toast-context';
import { ToastItem } from './toast-item';
import type { ToastRecord } from './toast-item';

/** Props of {@link ToastProvider}. */
export interface ToastProviderProps {
  children: ReactNode;
  /** How long a toast stays unless `show` says otherwise. @default 5000 */
  defaultDurationMs?: number;
  /** At most this many toasts at once; the oldest goes first. @default 3 */
  max?: number;
}

/**
 * Holds the toasts of the app and renders them in a polite live region, bottom right.
 *
 * @example
 * <ToastProvider>
 *   <RouterProvider router={router} />
 * </ToastProvider>
 */
export function ToastProvider({ children, defaultDurationMs = 5000, max = 3 }: ToastProviderProps) {
  const [toasts, setToasts] = useState<ToastRecord[]>([]);
  const nextId = useRef(0);

  const dismiss = useCallback((id: string) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback(
    (message: string, options: ToastOptions = {}) => {
      nextId.current += 1;
      const toast: ToastRecord = {
        id: `otto-toast-${nextId.current}`,
        message,
        tone: options.tone ?? 'info',
        durationMs: options.durationMs ?? defaultDurationMs,
      };
      setToasts((current) => [...current, toast].slice(-max));
      return toast.id;
    },
    [defaultDurationMs, max],
  );

  const api = useMemo<ToastApi>(() => ({ show, dismiss }), [show, dismiss]);

  return (
    <ToastContext value={api}>
      {children}
      <div className="otto-toaster" aria-live="polite" aria-relevant="additions text">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext>
  );
}
