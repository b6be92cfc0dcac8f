import type { ReactNode } from 'react';
import { cx } from './cx';

/** Props of {@link EmptyState}. */
export interface EmptyStateProps {
  title: ReactNode;
  description?: ReactNode;
  /** A button or link that gets the user going, e.g. "New customer". */
  action?: ReactNode;
  /** A decorative illustration above the title. */
  icon?: ReactNode;
  /** Render the title as a heading of this level instead of a paragraph. */
  headingLevel?: 2 | 3 | 4;
  className?: string;
}

/**
 * What to show when a list has nothing in it, with a way forward.
 *
 * @example
 * <EmptyState
 *   title="No customers match “acme”"
 *   description="Check the spelling or clear the search."
 *   action={<Button onClick={clearSearch}>Clear search</Button>}
 * />
 */
export function EmptyState({ title, description, action, icon, headingLevel, className }: EmptyStateProps) {
  const Title = headingLevel ? (`h${headingLevel}` as const) : 'p';
  return (
    <div className={cx('otto-empty', className)}>
      {icon != null && (
        <div className="otto-empty__icon" aria-hidden="true">
          {icon}
        </div>
      )}
      <Title className="otto-empty__title">{title}</Title>
      {description != null && <p className="otto-empty__description">{description}</p>}
      {action != null && <div className="otto-empty__action">{action}</div>}
    </div>
  );
}
