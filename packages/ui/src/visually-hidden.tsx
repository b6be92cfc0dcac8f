import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';

/** Props of {@link VisuallyHidden}: any `<span>` props. */
export type VisuallyHiddenProps = ComponentPropsWithRef<'span'>;

/**
 * Text that screen readers announce but sighted users do not see.
 *
 * @example
 * <button type="button"><TrashIcon /><VisuallyHidden>Delete customer</VisuallyHidden></button>
 */
export function VisuallyHidden({ className, ...rest }: VisuallyHiddenProps) {
  return <span className={cx('otto-visually-hidden', className)} {...rest} />;
}
