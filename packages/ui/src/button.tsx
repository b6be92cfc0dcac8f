import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';
import { Spinner } from './spinner';

/** Visual style of a {@link Button}. */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
/** Height of a {@link Button}. */
export type ButtonSize = 'sm' | 'md' | 'lg';

/** Props of {@link Button}: every `<button>` prop (including `ref`) plus these. */
export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  /** @default 'secondary' */
  variant?: ButtonVariant;
  /** @default 'md' */
  size?: ButtonSize;
  /** Shows a spinner, sets aria-busy and disables the button so it cannot be clicked twice. */
  loading?: boolean;
}

/**
 * The class names of a button, for elements that must look like one (a router `<Link>`).
 *
 * @example
 * <Link to="/customers/new" className={buttonClassName({ variant: 'primary' })}>New customer</Link>
 */
export function buttonClassName({
  variant = 'secondary',
  size = 'md',
}: { variant?: ButtonVariant; size?: ButtonSize } = {}): string {
  return cx('otto-button', `otto-button--${variant}`, size !== 'md' && `otto-button--${size}`);
}

/**
 * A button. Defaults to `type="button"` so it never submits a form by accident.
 *
 * @example
 * <Button variant="primary" type="submit" loading={mutation.isPending}>Save customer</Button>
 */
export function Button({
  variant,
  size,
  loading = false,
  disabled,
  type = 'button',
  className,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={cx(buttonClassName({ variant, size }), className)}
      {...rest}
    >
      {loading && <Spinner size="sm" />}
      {children}
    </button>
  );
}
