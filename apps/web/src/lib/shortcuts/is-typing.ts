const nonTextInputs = new Set(['button', 'checkbox', 'radio', 'range', 'color', 'file', 'image', 'reset', 'submit']);

/** True when keys pressed in `target` are text being typed (an input, textarea, select or editable element). */
export function isTypingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !nonTextInputs.has(target.type);
  return target.getAttribute('role') === 'combobox' || target.getAttribute('role') === 'textbox';
}
