import { defaultSortOrders, limits, type SortOrder } from '@otto/api-contract';

/** The page sizes a list offers; the spec's default (10) first. */
export const pageSizes = [limits.defaultPageSize, 25, 50, 100] as const;

/** A list's order as the URL holds it (`?sort=full_name&order=asc`). */
export interface ListSort<F extends string> {
  by: F;
  order: SortOrder;
}

/**
 * Reads `sort`, `order` and `size` from the list's URL, with the contract's rules: a `sort` the
 * list does not offer, an `order` other than asc/desc, or a size not in `pageSizes` is ignored
 * (the default order, the field's default direction, 10 rows), as the spec ignores an invalid
 * filterJson.
 * @example
 * const { sort, pageSize } = readListOrder(searchParams, customerSortFields);
 */
export function readListOrder<F extends keyof typeof defaultSortOrders>(
  searchParams: URLSearchParams,
  fields: readonly F[],
): { sort: ListSort<F> | undefined; pageSize: number } {
  const by = searchParams.get('sort') as F | null;
  const rawOrder = searchParams.get('order');
  const size = Number(searchParams.get('size'));
  const order: SortOrder | undefined = rawOrder === 'asc' || rawOrder === 'desc' ? rawOrder : undefined;
  const sort: ListSort<F> | undefined =
    by !== null && fields.includes(by) ? { by, order: order ?? (defaultSortOrders[by] as SortOrder) } : undefined;
  return { sort, pageSize: (pageSizes as readonly number[]).includes(size) ? size : limits.defaultPageSize };
}

/** The filterJson fields of an order (nothing for the default order). */
export function sortFilter<F extends string>(sort: ListSort<F> | undefined): { sortBy?: F; sortOrder?: SortOrder } {
  return sort ? { sortBy: sort.by, sortOrder: sort.order } : {};
}

/** `aria-sort` of a column: its direction when the list is ordered by it. */
export function columnDirection<F extends string>(current: ListSort<F> | undefined, field: F): 'ascending' | 'descending' | 'none' {
  if (!current || current.by !== field) return 'none';
  return current.order === 'asc' ? 'ascending' : 'descending';
}

/** What a click on a column header asks for: the column in its default direction, or the other way round when it is the current one. */
export function nextSort<F extends keyof typeof defaultSortOrders>(current: ListSort<F> | undefined, field: F): ListSort<F> {
  if (current?.by === field) return { by: field, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { by: field, order: defaultSortOrders[field] as SortOrder };
}
