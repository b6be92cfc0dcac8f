import { createContext } from 'react';
import type { StatusTone } from './tone-icon';

/** A button inside a toast, such as "Undo". */
export interface ToastAction {
  /** The button's text, e.g. "Undo". */
  label: string;
  /** Runs when the button is pressed; the toast closes afterwards. */
  onAction: () => void;
}

/** Options of one toast. */
export interface ToastOptions {
  /** @default 'info' */
  tone?: StatusTone;
  /** How long the toast stays, paused while hovered or focused; `Infinity` keeps it until dismissed. */
  durationMs?: number;
  /**
   * Toasts of one kind replace each other: a new one takes the place of the one on screen, so
   * repeated saves never stack up. @default the tone
   */
  kind?: string;
  /** One button in the toast, e.g. `{ label: 'Undo', onAction: undo }`. */
  action?: ToastAction;
}

/** What {@link useToast} returns. */
export interface ToastApi {
  /** Shows a toast (replacing the one of the same kind) and returns its id. */
  show: (message: string, options?: ToastOptions) => string;
  /** Removes a toast now. */
  dismiss: (id: string) => void;
}

/** Internal: set by ToastProvider, read by useToast. */
export const ToastContext = createContext<ToastApi | null>(null);
