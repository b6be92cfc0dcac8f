import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';

/** Colour of a {@link Badge}. */
export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** Props of {@link Badge}: any `<span>` props plus a tone. */
export interface BadgeProps extends ComponentPropsWithRef<'span'> {
  /** @default 'neutral' */
  tone?: BadgeTone;
}

/**
 * A small pill for a status or category. The text carries the meaning, the colour only helps.
 *
 * @example
 * <Badge tone={customer.status === 'active' ? 'success' : 'neutral'}>{customer.status}</Badge>
 */
export function Badge({ tone = 'neutral', className, ...rest }: BadgeProps) {
  return <span className={cx('otto-badge', tone !== 'neutral' && `otto-badge--${tone}`, className)} {...rest} />;
}
