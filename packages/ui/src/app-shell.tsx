import { useId, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';
import { cx } from './cx';

/** Props of {@link AppShell}. */
export interface AppShellProps {
  /** The product name or logo at the top of the navigation; usually a link home. */
  brand: ReactNode;
  /** The navigation, usually a {@link NavList} of router links. Folds into a menu on phones. */
  nav: ReactNode;
  /** Controls that stay visible on phones next to the menu button, e.g. a search button. */
  tools?: ReactNode;
  /** App-wide notices shown above the page, e.g. "Changes will not be kept". */
  banner?: ReactNode;
  /** The page, rendered in `<main id="main">`. */
  children: ReactNode;
  /** Text of the skip link. @default 'Skip to content' */
  skipLinkLabel?: string;
  /** Text of the button that opens the navigation on phones. @default 'Menu' */
  menuLabel?: string;
  className?: string;
}

/**
 * The app frame: skip link, brand and navigation (a full-height sidebar on wide screens, a top bar
 * with a menu button on phones), an optional banner and the main content.
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
export function AppShell({
  brand,
  nav,
  tools,
  banner,
  children,
  skipLinkLabel = 'Skip to content',
  menuLabel = 'Menu',
  className,
}: AppShellProps) {
  const navId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  // Following a link (or pressing a button) in the folded menu closes it.
  function closeAfterChoice(event: MouseEvent<HTMLDivElement>) {
    if ((event.target as HTMLElement).closest('a, button')) setMenuOpen(false);
  }
  function closeOnEscape(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape' && menuOpen) {
      setMenuOpen(false);
      menuButton.current?.focus();
    }
  }

  return (
    <div className={cx('otto-shell', className)}>
      <a className="otto-skip-link" href="#main">
        {skipLinkLabel}
      </a>
      <header className="otto-shell__header">
        <div className="otto-shell__sidebar">
        <div className="otto-shell__bar">
          <div className="otto-shell__brand">{brand}</div>
          {tools != null && <div className="otto-shell__tools">{tools}</div>}
          <button
            ref={menuButton}
            type="button"
            className="otto-shell__menu-button"
            aria-expanded={menuOpen}
            aria-controls={navId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
              {menuOpen ? (
                <path d="m4 4 8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
              ) : (
                <path d="M2.5 4h11M2.5 8h11M2.5 12h11" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
              )}
            </svg>
            {menuLabel}
          </button>
        </div>
        <div
          id={navId}
          className="otto-shell__nav"
          data-open={menuOpen || undefined}
          onClick={closeAfterChoice}
          onKeyDown={closeOnEscape}
        >
          {nav}
        </div>
        </div>
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
