import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/** Tab and Shift+Tab cycle through the dialog's own controls instead of leaving it. */
function keepFocusInside(event: KeyboardEvent, panel: HTMLElement | null): void {
  const focusable = [...(panel?.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([hidden]), a[href], select, textarea') ?? [])];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

export interface ModalProps {
  title: string;
  /** `alertdialog` for a question that needs an answer, `dialog` for a panel of actions. */
  role?: 'dialog' | 'alertdialog';
  children: ReactNode;
  /** Called on Escape; omit to make the dialog answerable only by its buttons. */
  onClose?: () => void;
  /** An extra class for the panel (a wider dialog). */
  className?: string;
}

/**
 * A modal dialog over the page: labelled, focus moved into it and restored after, Escape closes.
 * Rendered at the end of <body>, so no sticky or scrolling container can clip it.
 */
export function Modal({ title, role = 'dialog', children, onClose, className }: ModalProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // Read while rendering, before React moves focus to an `autoFocus` button of the dialog, so that
  // closing it gives focus back to what had it (the link or button that opened it).
  const [previous] = useState(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    if (!panel.current?.contains(document.activeElement)) {
      panel.current?.querySelector<HTMLElement>('[autofocus], button, input, a[href]')?.focus();
    }
    return () => {
      if (previous?.isConnected) previous.focus();
    };
  }, [previous]);

  useEffect(() => {
    // Escape closes the dialog wherever focus is (also when a button that was pressed became
    // disabled and focus fell to the page).
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape' && close.current) {
        event.preventDefault();
        close.current();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return createPortal(
    <div className="otto-dialog-backdrop">
      <div
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        className={className ? `otto-dialog ${className}` : 'otto-dialog'}
        onKeyDown={(event) => {
          if (event.key === 'Tab') keepFocusInside(event, panel.current);
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}
