import { useContext } from 'react';
import { ToastContext } from './toast-context';
import type { ToastApi } from './toast-context';

/**
 * Shows short-lived messages. Needs a {@link ToastProvider} above it.
 *
 * @example
 * const toast = useToast();
 * toast.show('Customer saved', { tone: 'success' });
 */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) {
    throw new Error('useToast() found no ToastProvider: wrap the app (or the test) in <ToastProvider>.');
  }
  return api;
}
