import { useEffect, useRef } from 'react';

/**
 * On a screen that exists to be filled in (a new customer, a new job), the cursor starts in its
 * first field, so that what is typed after `n` lands there; the screens that show a record focus
 * its heading instead (PageHeader `focusTitle`). Returns the ref for the form.
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
    ref.current?.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])')?.focus();
  }, []);
  return ref;
}
