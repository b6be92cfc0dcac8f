import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiClientError } from './api-client-error';

export interface ValidatedFormOptions<Values, Input> {
  initial: Values;
  /** The input to send, or the message of each field that breaks a rule. */
  validate: (values: Values) => { input?: Input; errors: Record<string, string> };
  onSubmit: (input: Input) => Promise<unknown>;
  onDirtyChange?: ((dirty: boolean) => void) | undefined;
  /** The values to show once saved (for example trimmed); defaults to what was typed. */
  savedValues?: (input: Input, values: Values) => Values;
  /** What to say when saving fails for a reason the server did not put in words. */
  fallbackFailure: string;
  /**
   * The record as it was saved elsewhere, once the user chose to keep editing over that change:
   * each field not changed here since the form's last load or save takes its new value, so that a
   * field changed only elsewhere survives this form's save; a field changed here keeps what was typed.
   */
  incoming?: Values | undefined;
}

/**
 * Form state with the contract's rules: messages appear on submit and then follow every change,
 * nothing is sent while a rule is broken, the server's field issues land next to their fields, and
 * the dirty flag follows what was last saved.
 */
export function useValidatedForm<Values, Input>(options: ValidatedFormOptions<Values, Input>) {
  const { validate, onSubmit, onDirtyChange } = options;
  const [values, setValues] = useState(options.initial);
  const [saved, setSaved] = useState(options.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string>();
  const latest = useRef(values);
  latest.current = values;

  const incoming = options.incoming;
  const incomingKey = incoming === undefined ? undefined : JSON.stringify(incoming);
  // What the form was built with is not news: only a version that comes later is merged.
  const merged = useRef(incomingKey);
  useEffect(() => {
    if (incoming === undefined || incomingKey === merged.current) return;
    merged.current = incomingKey;
    const mine = latest.current;
    const theirs: Values = incoming;
    const next = { ...mine };
    for (const key of Object.keys(theirs as object) as (keyof Values)[]) {
      if (JSON.stringify(mine[key]) === JSON.stringify(saved[key])) next[key] = theirs[key];
    }
    setValues(next);
    setSaved(incoming);
    onDirtyChange?.(JSON.stringify(next) !== JSON.stringify(incoming));
    // Merged once per new version (its JSON), not on every render.
  }, [incomingKey]);

  function change<K extends keyof Values>(field: K, value: Values[K]) {
    const next = { ...values, [field]: value };
    setValues(next);
    onDirtyChange?.(JSON.stringify(next) !== JSON.stringify(saved));
    if (submitted) setErrors(validate(next).errors);
  }

  /** Changes several fields at once (fields that follow each other, such as a choice and what it fills in). */
  function changeMany(patch: Partial<Values>) {
    const next = { ...values, ...patch };
    setValues(next);
    onDirtyChange?.(JSON.stringify(next) !== JSON.stringify(saved));
    if (submitted) setErrors(validate(next).errors);
  }

  /** Takes keyboard and screen-reader users to the first field (marked `data-field`) that needs attention. */
  function focusFirst(form: HTMLFormElement, found: Record<string, string>) {
    const first = Object.keys(found)[0];
    if (first) form.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>, saving: boolean) {
    event.preventDefault();
    const formElement = event.currentTarget;
    if (saving) return;
    setSubmitted(true);
    setFailure(undefined);
    const { input, errors: found } = validate(values);
    setErrors(found);
    if (input === undefined) return focusFirst(formElement, found);
    try {
      await onSubmit(input);
      const after = options.savedValues?.(input, values) ?? values;
      setSaved(after);
      // Whatever was typed while saving stays, and stays marked as unsaved.
      if (latest.current === values) {
        setValues(after);
        onDirtyChange?.(false);
      } else {
        onDirtyChange?.(JSON.stringify(latest.current) !== JSON.stringify(after));
      }
    } catch (error) {
      if (error instanceof ApiClientError) {
        const issues = error.fieldIssues();
        if (Object.keys(issues).length > 0) setErrors(issues);
        setFailure(error.message);
        focusFirst(formElement, issues);
      } else {
        setFailure(options.fallbackFailure);
      }
    }
  }

  return { values, errors, failure, change, changeMany, submit };
}
