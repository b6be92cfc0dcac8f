import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';
import { FieldFrame, useFieldIds } from './field-frame';
import type { FieldOwnProps } from './field-frame';

/** Props of {@link TextField}: every `<input>` prop (including `ref`) plus label, hint and error. */
export interface TextFieldProps extends FieldOwnProps, ComponentPropsWithRef<'input'> {
  /** Class of the outer wrapper; use `inputClassName` for the input itself. */
  className?: string;
  inputClassName?: string;
}

/**
 * A labelled text input with optional hint and error message. `required` adds a visual marker.
 *
 * @example
 * <TextField label="Email" type="email" name="email" required error={errors.email} />
 */
export function TextField({
  label,
  hint,
  error,
  id,
  required,
  className,
  inputClassName,
  'aria-describedby': describedBy,
  ...rest
}: TextFieldProps) {
  const ids = useFieldIds({ id, hint, error, describedBy });
  return (
    <FieldFrame {...ids} label={label} required={required} hint={hint} error={error} className={className}>
      <input
        id={ids.controlId}
        required={required}
        aria-invalid={ids.invalid || undefined}
        aria-describedby={ids.ariaDescribedBy}
        className={cx('otto-input', inputClassName)}
        {...rest}
      />
    </FieldFrame>
  );
}
