import { SelectField } from '@otto/ui';
import type { SortOrder } from '@otto/api-contract';
import { pageSizes, type ListSort } from './list-order';

/** One choice of the "Order" select. */
export interface OrderChoice<F extends string> {
  sort: ListSort<F>;
  label: string;
}

export interface ListControlsProps<F extends string> {
  /** Names the controls for assistive tech, e.g. "customers". */
  noun: string;
  /** The order the list shows without a `sort`, in words ("Best match first"). */
  defaultLabel: string;
  choices: readonly OrderChoice<F>[];
  sort: ListSort<F> | undefined;
  onSortChange: (sort: ListSort<F> | undefined) => void;
  pageSize: number;
  onPageSizeChange: (size: number) => void;
}

const key = (sort: { by: string; order: SortOrder }) => `${sort.by}:${sort.order}`;

/**
 * The list's order and page size, above the list: the select says in words how the list is
 * ordered (also on a phone, where the rows are cards without column headers).
 */
export function ListControls<F extends string>(props: ListControlsProps<F>) {
  const { choices, sort } = props;
  const current = sort ? key(sort) : 'default';
  const known = current === 'default' || choices.some((c) => key(c.sort) === current);
  return (
    <div className="list-controls">
      <SelectField
        label="Order"
        name="order"
        className="list-controls__order"
        value={current}
        onChange={(event) => {
          const picked = choices.find((c) => key(c.sort) === event.target.value);
          props.onSortChange(picked?.sort);
        }}
        options={[
          { value: 'default', label: props.defaultLabel },
          ...choices.map((c) => ({ value: key(c.sort), label: c.label })),
          ...(known || !sort ? [] : [{ value: current, label: `${sort.by}, ${sort.order}` }]),
        ]}
      />
      <SelectField
        label={`${props.noun[0]?.toUpperCase() ?? ''}${props.noun.slice(1)} per page`}
        name="size"
        className="list-controls__size"
        value={String(props.pageSize)}
        onChange={(event) => props.onPageSizeChange(Number(event.target.value))}
        options={pageSizes.map((n) => ({ value: String(n), label: String(n) }))}
      />
    </div>
  );
}
