import type { ReactNode } from 'react';
import { Button } from './button';
import { cx } from './cx';

/** Props of {@link Pagination}. */
export interface PaginationProps {
  /** The current page, 1-based. */
  page: number;
  /** How many pages there are; 0 is shown as "Page 1 of 1". */
  pageCount: number;
  /** Called with the page to go to. */
  onPageChange: (page: number) => void;
  /** Text beside the controls, such as "501 customers". */
  summary?: ReactNode;
  /** Accessible name of the `<nav>`. @default 'Pagination' */
  label?: string;
  className?: string;
}

/**
 * Previous/Next paging with "Page N of M", disabled at either end.
 *
 * @example
 * <Pagination page={page} pageCount={Math.ceil(total / 20)} onPageChange={setPage} summary={`${total} customers`} />
 */
export function Pagination({
  page,
  pageCount,
  onPageChange,
  summary,
  label = 'Pagination',
  className,
}: PaginationProps) {
  const last = Math.max(1, Math.floor(pageCount));
  const current = Math.min(Math.max(1, Math.floor(page)), last);
  return (
    <nav aria-label={label} className={cx('otto-pagination', className)}>
      {summary != null && <p className="otto-pagination__summary">{summary}</p>}
      <div className="otto-pagination__controls">
        <Button size="sm" disabled={current <= 1} onClick={() => onPageChange(current - 1)}>
          Previous
        </Button>
        <span className="otto-pagination__status" aria-live="polite" aria-atomic="true">
          {`Page ${current} of ${last}`}
        </span>
        <Button size="sm" disabled={current >= last} onClick={() => onPageChange(current + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
