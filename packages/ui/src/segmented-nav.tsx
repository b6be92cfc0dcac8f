import type { ReactNode } from 'react';
import { cx } from './cx';

/** One option of a {@link SegmentedNav}. */
export interface SegmentedNavItem {
  key: string;
  label: ReactNode;
  /**
   * Shown after the label, e.g. how many rows the filter matches. `null`: a count is coming (its
   * place is kept, so the buttons do not move under a pointer when the counts arrive).
   */
  count?: number | null;
  /** Whether this option is the current one (aria-pressed). */
  active: boolean;
  onSelect: () => void;
}

/** Props of {@link SegmentedNav}. */
export interface SegmentedNavProps {
  /** Accessible name of the group, e.g. "Filter by status". */
  label: string;
  items: readonly SegmentedNavItem[];
  className?: string;
}

/**
 * A row of toggle buttons for switching a list filter, with optional counts.
 *
 * @example
 * <SegmentedNav
 *   label="Filter by status"
 *   items={statuses.map((s) => ({ key: s, label: s, count: counts[s], active: s === status, onSelect: () => setStatus(s) }))}
 * />
 */
export function SegmentedNav({ label, items, className }: SegmentedNavProps) {
  return (
    <div role="group" aria-label={label} className={cx('otto-segmented', className)}>
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          aria-pressed={item.active}
          onClick={item.onSelect}
          className="otto-segmented__item"
        >
          {item.label}
          {item.count === null && <span className="otto-segmented__count" aria-hidden="true" />}
          {item.count != null && (
            <>
              {/* Read as "Paid, 12", not "Paid12". */}
              <span className="otto-visually-hidden">, </span>
              <span className="otto-segmented__count">{item.count.toLocaleString()}</span>
            </>
          )}
        </button>
      ))}
    </div>
  );
}
