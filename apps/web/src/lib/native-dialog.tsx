import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface NativeDialogProps {
  open: boolean;
  /** Escape, a click on the backdrop, or a close button asked to close. */
  onClose: () => void;
  /** Runs once the dialog has closed and the browser has given focus back. */
  afterClose?: () => void;
  className?: string;
  /** The id of the element that names the dialog. */
  labelledBy: string;
  /** Marks the dialog for code that must tell it apart (e.g. `data-command-palette`). */
  dataAttribute?: string;
  children: ReactNode;
}

/**
 * A modal `<dialog>` opened with showModal(): the browser makes the page behind it inert (focus
 * cannot leave), puts it in the top layer, closes it on Escape and gives focus back to where it
 * was. No injected styles or scroll-lock scripts, so it works under Otto's strict CSP. Its content
 * is mounted only while open, so every opening starts fresh.
 */
export function NativeDialog({ open, onClose, afterClose, className, labelledBy, dataAttribute, children }: NativeDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const latestAfterClose = useRef(afterClose);
  latestAfterClose.current = afterClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The browser focuses the first focusable element; a field marked data-autofocus goes first.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) {
      dialog.close();
      latestAfterClose.current?.();
    }
  }, [open]);

  // At the end of <body>: a dialog inside a hidden ancestor (the folded phone menu) would not show.
  return createPortal(
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={labelledBy}
      {...(dataAttribute ? { [dataAttribute]: '' } : {})}
      onCancel={(event) => {
        // Escape: React decides (the state says closed, then the effect closes the element).
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      {open && children}
    </dialog>,
    document.body,
  );
}
