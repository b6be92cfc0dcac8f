import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';
import { FieldFrame, useFieldIds } from './field-frame';
import type { FieldOwnProps } from './field-frame';

/** Props of {@link TextAreaField}: every `<textarea>` prop (including `ref`) plus label, hint and error. */
export interface TextAreaFieldProps extends FieldOwnProps, ComponentPropsWithRef<'textarea'> {
  /** Class of the outer wrapper; use `textAreaClassName` for the textarea itself. */
  className?: string;
  textAreaClassName?: string;
}

/**
 * A labelled multi-line text input with optional hint and error message.
 *
 * @example
 * <TextAreaField label="Notes" name="notes" rows={4} hint="Visible to your team only." />
 */
export function TextAreaField({
  label,
  hint,
  error,
  id,
  required,
  className,
  textAreaClassName,
  'aria-describedby': describedBy,
  ...rest
}: TextAreaFieldProps) {
  const ids = useFieldIds({ id, hint, error, describedBy });
  return (
    <FieldFrame {...ids} label={label} required={required} hint={hint} error={error} className={className}>
      <textarea
        id={ids.controlId}
        required={required}
        aria-invalid={ids.invalid || undefined}
        aria-describedby={ids.ariaDescribedBy}
        className={cx('otto-input', 'otto-input--textarea', textAreaClassName)}
        {...rest}
      />
    </FieldFrame>
  );
}
