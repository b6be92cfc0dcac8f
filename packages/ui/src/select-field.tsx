import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';
import { FieldFrame, useFieldIds } from './field-frame';
import type { FieldOwnProps } from './field-frame';

/** One `<option>` of a {@link SelectField}. */
export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

/** Props of {@link SelectField}: every `<select>` prop (including `ref`) plus label, hint and error. */
export interface SelectFieldProps extends FieldOwnProps, ComponentPropsWithRef<'select'> {
  /** The options; pass `<option>` children instead when you need groups. */
  options?: readonly SelectOption[];
  /** Class of the outer wrapper; use `selectClassName` for the select itself. */
  className?: string;
  selectClassName?: string;
}

/**
 * A labelled native select with optional hint and error message.
 *
 * @example
 * <SelectField
 *   label="Status"
 *   name="status"
 *   options={[{ value: 'active', label: 'Active' }, { value: 'inactive', label: 'Inactive' }]}
 * />
 */
export function SelectField({
  label,
  hint,
  error,
  id,
  required,
  options,
  className,
  selectClassName,
  children,
  'aria-describedby': describedBy,
  ...rest
}: SelectFieldProps) {
  const ids = useFieldIds({ id, hint, error, describedBy });
  return (
    <FieldFrame {...ids} label={label} required={required} hint={hint} error={error} className={className}>
      <select
        id={ids.controlId}
        required={required}
        aria-invalid={ids.invalid || undefined}
        aria-describedby={ids.ariaDescribedBy}
        className={cx('otto-input', 'otto-input--select', selectClassName)}
        {...rest}
      >
        {options?.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
        {children}
      </select>
    </FieldFrame>
  );
}
