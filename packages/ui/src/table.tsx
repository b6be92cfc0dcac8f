import { useId } from 'react';
import type { Key, ReactNode } from 'react';
import { cx } from './cx';
import { EmptyState } from './empty-state';
import { Spinner } from './spinner';

/** One column of a {@link Table}. */
export interface TableColumn<Row> {
  /** Stable React key of the column. */
  key: string;
  header: ReactNode;
  /** The cell content for one row; render a link here to make rows navigable. */
  render: (row: Row) => ReactNode;
  /** Class for the header and every cell of the column, e.g. `otto-numeric`. */
  className?: string;
  /** Leave this column out of the phone cards (see `TableProps.cards`). @default false */
  hideInCard?: boolean;
  /** Render the cells as `<th scope="row">` (use on the column that names the row). */
  rowHeader?: boolean;
  /**
   * Makes the header a button that sorts the list by this column; `direction` is the column's
   * current order (`aria-sort`), `none` when the list is ordered by something else.
   */
  sort?: { direction: 'ascending' | 'descending' | 'none'; onSort: () => void };
}

/** Props of {@link Table}. */
export interface TableProps<Row> {
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  getRowKey: (row: Row) => Key;
  /** Names the table (and its scroll region) for assistive tech. */
  caption: ReactNode;
  /** Keep the caption for screen readers only. @default false */
  hideCaption?: boolean;
  /** Shown in place of the rows when `rows` is empty and not loading. Defaults to "No results". */
  emptyState?: ReactNode;
  /** Dims the rows and sets aria-busy; with no rows yet it shows a spinner. */
  loading?: boolean;
  /**
   * On phones (below 48rem) show each row as a card, its cells one under the other, instead of a
   * table that scrolls sideways. Put the row's main link in the first column. @default false
   */
  cards?: boolean;
  className?: string;
}

/**
 * A typed data table with a sticky header; scrolls sideways on narrow screens.
 *
 * @example
 * <Table
 *   caption="Customers"
 *   hideCaption
 *   rows={customers}
 *   getRowKey={(c) => c.id}
 *   columns={[
 *     { key: 'name', header: 'Name', rowHeader: true, render: (c) => <Link to={c.href}>{c.name}</Link> },
 *     { key: 'email', header: 'Email', render: (c) => c.email },
 *   ]}
 *   emptyState={<EmptyState title="No customers yet" />}
 *   loading={query.isFetching}
 * />
 */
export function Table<Row>({
  columns,
  rows,
  getRowKey,
  caption,
  hideCaption = false,
  emptyState = <EmptyState title="No results" />,
  loading = false,
  cards = false,
  className,
}: TableProps<Row>) {
  const captionId = useId();
  const empty = rows.length === 0;
  const message = loading ? (
    <div className="otto-table__loading">
      <Spinner /> Loading…
    </div>
  ) : (
    emptyState
  );
  return (
    <div className={cx('otto-table', loading && 'otto-table--loading', cards && 'otto-table--cards', className)}>
      <div className="otto-table__scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="otto-table__table" aria-busy={loading || undefined}>
          <caption id={captionId} className={hideCaption ? 'otto-visually-hidden' : 'otto-table__caption'}>
            {caption}
          </caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={column.className}
                  aria-sort={column.sort && column.sort.direction !== 'none' ? column.sort.direction : undefined}
                >
                  {column.sort ? (
                    <button type="button" className="otto-table__sort" onClick={column.sort.onSort}>
                      {column.header}
                      <SortArrow direction={column.sort.direction} />
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {empty ? (
              <tr>
                <td colSpan={columns.length} className="otto-table__message">
                  {message}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={getRowKey(row)}>
                  {columns.map((column) =>
                    column.rowHeader ? (
                      <th key={column.key} scope="row" className={cellClass(column)}>
                        {column.render(row)}
                      </th>
                    ) : (
                      <td key={column.key} className={cellClass(column)}>
                        {column.render(row)}
                      </td>
                    ),
                  )}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** ▲, ▼ or a faint ↕ after a sortable header (decorative: aria-sort carries the meaning). */
function SortArrow({ direction }: { direction: 'ascending' | 'descending' | 'none' }) {
  const d = direction === 'ascending' ? 'M4 10l4-5 4 5z' : direction === 'descending' ? 'M4 6l4 5 4-5z' : 'M5 6.5l3-3.5 3 3.5zM5 9.5l3 3.5 3-3.5z';
  return (
    <svg className={cx('otto-table__sort-arrow', direction === 'none' && 'otto-table__sort-arrow--idle')} width="12" height="12" viewBox="0 0 16 16" aria-hidden="true">
      <path d={d} fill="currentColor" />
    </svg>
  );
}

function cellClass(column: { className?: string | undefined; hideInCard?: boolean | undefined }): string | undefined {
  return cx(column.className, column.hideInCard && 'otto-table__not-in-card') || undefined;
}
