import { customerInputSchema, customerRoutes, defaultSortOrders, limits, listParamsRangeSchema, type CustomerInput } from '@otto/api-contract';
import { ApiError, toApiIssues } from '../runtime/api-error';
import { defineHandler } from '../runtime/handler';
import { parseId } from '../runtime/ids';
import { checkPrecondition } from '../runtime/precondition';
import { findCustomer, insertCustomer, listCustomers, updateCustomer } from './customer-repository';

function notFound(id: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `Customer ${JSON.stringify(id)} was not found. It may never have existed.`);
}

function requireId(id: string): number {
  const rowid = parseId(id);
  if (rowid === null) throw notFound(id);
  return rowid;
}

function validInput(body: unknown): CustomerInput {
  const result = customerInputSchema.safeParse(body);
  if (!result.success) {
    throw new ApiError(400, 'VALIDATION_FAILED', 'Some fields need attention.', toApiIssues(result.error.issues));
  }
  return result.data;
}

const list = defineHandler(customerRoutes.list, ({ db, filter }) => {
  const range = listParamsRangeSchema.safeParse(filter);
  if (!range.success) {
    throw new ApiError(400, 'INVALID_PARAMS', 'The list parameters are out of range.', toApiIssues(range.error.issues));
  }
  const page = listCustomers(db, {
    queryText: range.data.queryText ?? '',
    limit: range.data.limit ?? limits.defaultPageSize,
    offset: range.data.offset ?? 0,
    sort: filter.sortBy ? { by: filter.sortBy, order: filter.sortOrder ?? defaultSortOrders[filter.sortBy] } : undefined,
  });
  return { data: page.rows, totalCount: page.total };
});

const get = defineHandler(customerRoutes.get, ({ db, params }) => {
  const customer = findCustomer(db, requireId(params.id));
  if (!customer) throw notFound(params.id);
  return { data: customer };
});

const create = defineHandler(customerRoutes.create, ({ db, body, now }) => ({
  data: insertCustomer(db, validInput(body), now()),
}));

const update = (route: typeof customerRoutes.update | typeof customerRoutes.patch) =>
  defineHandler(route, ({ db, params, body, now, ifMatch }) => {
    const id = requireId(params.id);
    if (ifMatch !== undefined) {
      const current = findCustomer(db, id);
      if (!current) throw notFound(params.id);
      checkPrecondition(ifMatch, current.modified_dt, `Customer ${JSON.stringify(params.id)}`);
    }
    const customer = updateCustomer(db, id, validInput(body), now());
    if (!customer) throw notFound(params.id);
    return { data: customer };
  });

/** The handlers of every customer route of the contract. */
export const customerHandlers = [list, get, create, update(customerRoutes.update), update(customerRoutes.patch)];
