import { useEffect, useRef, type ReactNode } from 'react';
import { cx } from './cx';

/** Props of {@link PageHeader}. */
export interface PageHeaderProps {
  /** The page's `<h1>`. */
  title: ReactNode;
  description?: ReactNode;
  /** Buttons or links at the end of the header, e.g. "New customer". */
  actions?: ReactNode;
  className?: string;
  /**
   * Moves focus to the heading when the header first appears, for a screen that opens one
   * record: keyboard and screen-reader users start at its name instead of the top of the page.
   * @default false
   */
  focusTitle?: boolean;
}

/**
 * The top of a page: one `<h1>`, an optional line of description and actions.
 *
 * @example
 * <PageHeader
 *   title="Customers"
 *   description="Everyone you do business with."
 *   actions={<Link className={buttonClassName({ variant: 'primary' })} to="/customers/new">New customer</Link>}
 * />
 */
export function PageHeader({ title, description, actions, className, focusTitle = false }: PageHeaderProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const focusOnMount = useRef(focusTitle);
  useEffect(() => {
    if (focusOnMount.current) heading.current?.focus();
  }, []);
  return (
    <header className={cx('otto-page-header', className)}>
      <div className="otto-page-header__text">
        <h1 ref={heading} tabIndex={focusTitle ? -1 : undefined} className="otto-page-header__title">
          {title}
        </h1>
        {description != null && <p className="otto-page-header__description">{description}</p>}
      </div>
      {actions != null && <div className="otto-page-header__actions">{actions}</div>}
    </header>
  );
}
