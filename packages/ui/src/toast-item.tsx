import { useEffect, useRef, useState } from 'react';
import { ToneIcon } from './tone-icon';
import type { StatusTone } from './tone-icon';
import type { ToastAction } from './toast-context';

/** One toast on screen (internal). */
export interface ToastRecord {
  id: string;
  message: string;
  tone: StatusTone;
  /** Toasts of one kind replace each other. */
  kind: string;
  durationMs: number;
  action?: ToastAction;
}

interface ToastItemProps {
  toast: ToastRecord;
  onDismiss: (id: string) => void;
}

/** A toast that dismisses itself after its duration; the timer pauses while hovered or focused. */
export function ToastItem({ toast, onDismiss }: ToastItemProps) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const remaining = useRef(toast.durationMs);
  const paused = hovered || focused;

  useEffect(() => {
    if (paused || !Number.isFinite(remaining.current)) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => onDismiss(toast.id), Math.max(0, remaining.current));
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - startedAt;
    };
  }, [paused, toast.id, onDismiss]);

  return (
    <div
      className={`otto-toast otto-toast--${toast.tone}`}
      data-kind={toast.kind}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <ToneIcon tone={toast.tone} />
      <div className="otto-toast__body">
        <p className="otto-toast__message">{toast.message}</p>
        {toast.action && (
          <button
            type="button"
            className="otto-toast__action"
            onClick={() => {
              toast.action?.onAction();
              onDismiss(toast.id);
            }}
          >
            {toast.action.label}
          </button>
        )}
      </div>
      <button
        type="button"
        className="otto-toast__dismiss"
        aria-label="Dismiss notification"
        onClick={() => onDismiss(toast.id)}
      >
        <svg width="14" height="14" viewBox="0 0 14 14" fill="none" aria-hidden="true">
          <path d="m3.5 3.5 7 7m0-7-7 7" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
