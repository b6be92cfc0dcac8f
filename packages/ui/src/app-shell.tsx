import type { ReactNode } from 'react';
import { cx } from './cx';

/** Props of {@link AppShell}. */
export interface AppShellProps {
  /** The product name or logo at the top of the navigation; usually a link home. */
  brand: ReactNode;
  /** The navigation, usually a {@link NavList} of router links. */
  nav: ReactNode;
  /** App-wide notices shown above the page, e.g. "Changes will not be kept". */
  banner?: ReactNode;
  /** The page, rendered in `<main id="main">`. */
  children: ReactNode;
  /** Text of the skip link. @default 'Skip to content' */
  skipLinkLabel?: string;
  className?: string;
}

/**
 * The app frame: skip link, brand and navigation (a sidebar on wide screens, a top bar on
 * phones), an optional banner and the main content.
 *
 * @example
 * <AppShell
 *   brand={<Link to="/">Otto</Link>}
 *   nav={<NavList label="Main"><NavLink to="/customers">Customers</NavLink></NavList>}
 *   banner={persistent ? null : <Notice tone="warning">Changes will not be kept.</Notice>}
 * >
 *   <Outlet />
 * </AppShell>
 */
export function AppShell({ brand, nav, banner, children, skipLinkLabel = 'Skip to content', className }: AppShellProps) {
  return (
    <div className={cx('otto-shell', className)}>
      <a className="otto-skip-link" href="#main">
        {skipLinkLabel}
      </a>
      <header className="otto-shell__header">
        <div className="otto-shell__brand">{brand}</div>
        <div className="otto-shell__nav">{nav}</div>
      </header>
      <div className="otto-shell__content">
        {banner != null && banner !== false && <div className="otto-shell__banner">{banner}</div>}
        <main id="main" tabIndex={-1} className="otto-shell__main">
          {children}
        </main>
      </div>
    </div>
  );
}
