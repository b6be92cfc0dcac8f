import { Children, isValidElement } from 'react';
import type { ReactNode } from 'react';
import { cx } from './cx';

/** Props of {@link NavList}. */
export interface NavListProps {
  /** Accessible name of the `<nav>`, e.g. "Main". */
  label: string;
  /** The links; each one is wrapped in its own `<li>`. */
  children: ReactNode;
  className?: string;
}

/**
 * A labelled `<nav>` with one list item per link. The current link is highlighted through
 * `aria-current="page"` (set by react-router's NavLink) or the `active` class.
 *
 * @example
 * <NavList label="Main">
 *   <NavLink to="/customers">Customers</NavLink>
 *   <NavLink to="/jobs">Jobs</NavLink>
 * </NavList>
 */
export function NavList({ label, children, className }: NavListProps) {
  return (
    <nav aria-label={label} className={cx('otto-nav', className)}>
      <ul className="otto-nav__list">
        {Children.map(children, (child) =>
          isValidElement(child) || typeof child === 'string' ? <li>{child}</li> : null,
        )}
      </ul>
    </nav>
  );
}
