import { useEffect, useRef } from 'react';

/**
 * On a screen that exists to be filled in (a new customer, a new job), the cursor starts in its
 * first field, so that what is typed after `n` lands there; the screens that show a record focus
 * its heading instead (PageHeader `focusTitle`). A field the person is in already keeps the cursor.
 * Returns the ref for the form.
 * @example
 * const formRef = useFocusFirstField<HTMLFormElement>(focusFirst);
 * return <form ref={formRef}>…</form>;
 */
export function useFocusFirstField<T extends HTMLElement>(enabled: boolean) {
  const ref = useRef<T>(null);
  const once = useRef(enabled);
  useEffect(() => {
    if (!once.current) return;
    once.current = false;
    // Never away from where the person already is: a form drawn again (its data arrived, say)
    // while they type in one of its fields would otherwise take the rest of what they type.
    const at = document.activeElement;
    if (at instanceof HTMLElement && at !== document.body && at.matches('input, select, textarea, [contenteditable="true"]')) return;
    ref.current?.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])')?.focus();
  }, []);
  return ref;
}
