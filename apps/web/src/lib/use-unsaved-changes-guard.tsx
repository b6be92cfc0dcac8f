import { Button } from '@otto/ui';
import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { Modal } from './modal';

/**
 * Asks before leaving a form with unsaved changes: in-app navigation shows a dialog, closing or
 * reloading the tab shows the browser's own prompt. Returns the dialog to render and a function
 * that lets the next navigation through (after a save).
 */
export function useUnsavedChangesGuard(dirty: boolean) {
  const allowNext = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !allowNext.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const dialog =
    blocker.state === 'blocked' ? (
      <Modal title="Leave without saving?" role="alertdialog" onClose={() => blocker.reset()}>
        <p>You have changes that are not saved. If you leave now, they are lost.</p>
        <div className="otto-dialog__actions">
          <Button autoFocus onClick={() => blocker.reset()}>
            Stay on this page
          </Button>
          <Button variant="danger" onClick={() => blocker.proceed()}>
            Leave and discard changes
          </Button>
        </div>
      </Modal>
    ) : null;

  return {
    dialog,
    allowNextNavigation: () => {
      allowNext.current = true;
    },
  };
}
