import { cx } from './cx';
import { VisuallyHidden } from './visually-hidden';

/** Props of {@link Spinner}. */
export interface SpinnerProps {
  /** Text announced to screen readers. Without it the spinner is decorative (aria-hidden). */
  label?: string;
  /** Relative to the surrounding font size. @default 'md' */
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

/**
 * A small rotating busy indicator that takes the current text colour.
 *
 * @example
 * <Spinner label="Loading customers" />
 */
export function Spinner({ label, size = 'md', className }: SpinnerProps) {
  const circle = <span aria-hidden="true" className={cx('otto-spinner', `otto-spinner--${size}`, !label && className)} />;
  if (!label) return circle;
  return (
    <span role="status" className={cx('otto-spinner-status', className)}>
      {circle}
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}
