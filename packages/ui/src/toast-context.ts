import { createContext } from 'react';
import type { StatusTone } from './tone-icon';

/** Options of one toast. */
export interface ToastOptions {
  /** @default 'info' */
  tone?: StatusTone;
  /** How long the toast stays, paused while hovered or focused; `Infinity` keeps it until dismissed. */
  durationMs?: number;
}

/** What {@link useToast} returns. */
export interface ToastApi {
  /** Shows a toast and returns its id. */
  show: (message: string, options?: ToastOptions) => string;
  /** Removes a toast now. */
  dismiss: (id: string) => void;
}

/** Internal: set by ToastProvider, read by useToast. */
export const ToastContext = createContext<ToastApi | null>(null);
