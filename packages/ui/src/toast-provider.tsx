import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
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
  /** At most this many toasts at once (of different kinds); the oldest goes first. @default 3 */
  max?: number;
}

/**
 * Holds the toasts of the app: at most one per kind (a new one replaces the old), in a corner
 * that keeps clear of the page's controls (the bottom of the sidebar on wide screens, a strip the
 * page makes room for on phones). Successes and information are read politely (`role="status"`),
 * warnings and errors at once (`role="alert"`). Only the toasts themselves take clicks.
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
      const tone = options.tone ?? 'info';
      const toast: ToastRecord = {
        id: `otto-toast-${nextId.current}`,
        message,
        tone,
        kind: options.kind ?? tone,
        durationMs: options.durationMs ?? defaultDurationMs,
        ...(options.action ? { action: options.action } : {}),
      };
      setToasts((current) => [...current.filter((t) => t.kind !== toast.kind), toast].slice(-max));
      return toast.id;
    },
    [defaultDurationMs, max],
  );

  const api = useMemo<ToastApi>(() => ({ show, dismiss }), [show, dismiss]);
  const toaster = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The page keeps room for the toasts at its end (phones), so its last controls can be
    // scrolled clear of them.
    const element = toaster.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--otto-toast-room', `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--otto-toast-room');
    };
  }, []);
  const urgent = (toast: ToastRecord) => toast.tone === 'error' || toast.tone === 'warning';

  return (
    <ToastContext value={api}>
      {children}
      <div ref={toaster} className="otto-toaster" data-toasts={toasts.length}>
        {/* Two live regions that are always there, so that what appears in them is announced. */}
        <div role="alert" className="otto-toaster__region">
          {toasts.filter(urgent).map((toast) => (
            <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
          ))}
        </div>
        <div role="status" className="otto-toaster__region">
          {toasts
            .filter((toast) => !urgent(toast))
            .map((toast) => (
              <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
            ))}
        </div>
      </div>
    </ToastContext>
  );
}
