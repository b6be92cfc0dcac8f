import { useId } from 'react';
import type { ReactNode } from 'react';
import { cx } from './cx';

/** What every labelled field accepts besides its control's own props. */
export interface FieldOwnProps {
  /** Visible label, bound to the control. */
  label: ReactNode;
  /** Help text under the control, linked with aria-describedby. */
  hint?: ReactNode;
  /** Error message under the control; sets aria-invalid and is linked with aria-describedby. */
  error?: ReactNode;
}

interface FieldIdsInput {
  id: string | undefined;
  hint: ReactNode;
  error: ReactNode;
  describedBy: string | undefined;
}

/** Ids that tie a control to its label, hint and error (internal). */
export function useFieldIds({ id, hint, error, describedBy }: FieldIdsInput) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const ariaDescribedBy = cx(describedBy, hintId, errorId) || undefined;
  return { controlId, hintId, errorId, ariaDescribedBy, invalid: Boolean(error) };
}

interface FieldFrameProps {
  controlId: string;
  label: ReactNode;
  required: boolean | undefined;
  hint: ReactNode;
  hintId: string | undefined;
  error: ReactNode;
  errorId: string | undefined;
  className: string | undefined;
  children: ReactNode;
}

/** Label, control, hint and error in the shared field layout (internal). */
export function FieldFrame(props: FieldFrameProps) {
  const { controlId, label, required, hint, hintId, error, errorId, className, children } = props;
  return (
    <div className={cx('otto-field', className)}>
      <label className="otto-field__label" htmlFor={controlId}>
        {label}
        {required && (
          <span className="otto-field__required" aria-hidden="true">
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p className="otto-field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="otto-field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
