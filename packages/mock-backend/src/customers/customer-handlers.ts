import { customerInputSchema, customerRoutes, defaultSortOrders, limits, listParamsRangeSchema, type CustomerInput } from '@otto/api-contract';
import { ApiError, toApiIssues } from '../runtime/api-error';
import { defineHandler } from '../runtime/handler';
import { parseId } from '../runtime/ids';
import { checkPrecondition } from '../runtime/precondition';
import {
  countJobsOfCustomer,
  deleteCustomer,
  findCustomer,
  findCustomerMatches,
  insertCustomer,
  listArchivedCustomers,
  listCustomers,
  setCustomerArchived,
  updateCustomer,
} from './customer-repository';

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
  const params = {
    queryText: range.data.queryText ?? '',
    limit: range.data.limit ?? limits.defaultPageSize,
    offset: range.data.offset ?? 0,
    sort: filter.sortBy ? { by: filter.sortBy, order: filter.sortOrder ?? defaultSortOrders[filter.sortBy] } : undefined,
  };
  const page = filter.archived === true ? listArchivedCustomers(db, params) : listCustomers(db, params);
  return { data: page.rows, totalCount: page.total };
});

const duplicates = defineHandler(customerRoutes.duplicates, ({ db, filter }) => {
  const excludeId = filter.excludeId === undefined ? undefined : (parseId(filter.excludeId) ?? undefined);
  return {
    data: findCustomerMatches(db, {
      ...(filter.email !== undefined ? { email: filter.email } : {}),
      ...(filter.phone !== undefined ? { phone: filter.phone } : {}),
      ...(excludeId !== undefined ? { excludeId } : {}),
    }),
  };
});

/** The customer, after checking If-Match against its version. */
function requireCustomer(db: Parameters<typeof findCustomer>[0], idText: string, ifMatch: number[] | '*' | undefined) {
  const customer = findCustomer(db, requireId(idText));
  if (!customer) throw notFound(idText);
  checkPrecondition(ifMatch, customer.modified_dt, `Customer ${JSON.stringify(idText)}`);
  return customer;
}

const archive = defineHandler(customerRoutes.archive, ({ db, params, now, ifMatch }) => {
  const customer = requireCustomer(db, params.id, ifMatch);
  if (customer.archived_dt != null) return { data: customer, changes: [] };
  return { data: setCustomerArchived(db, Number(customer.id), true, now()) };
});

const restore = defineHandler(customerRoutes.restore, ({ db, params, now, ifMatch }) => {
  const customer = requireCustomer(db, params.id, ifMatch);
  if (customer.archived_dt == null) return { data: customer, changes: [] };
  return { data: setCustomerArchived(db, Number(customer.id), false, now()) };
});

const remove = defineHandler(customerRoutes.remove, ({ db, params, ifMatch }) => {
  const customer = requireCustomer(db, params.id, ifMatch);
  if (customer.archived_dt == null) {
    throw new ApiError(409, 'CONFLICT', `${customer.full_name} is not archived. Archive them first; only archived customers can be deleted for good.`);
  }
  const jobs = countJobsOfCustomer(db, Number(customer.id));
  if (jobs > 0) {
    throw new ApiError(
      409,
      'CONFLICT',
      `${customer.full_name} still has ${jobs === 1 ? 'a job' : `${jobs} jobs`}. Delete ${jobs === 1 ? 'it' : 'them'} for good first, or keep the customer archived.`,
    );
  }
  deleteCustomer(db, Number(customer.id));
  return { data: customer };
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
export const customerHandlers = [
  list,
  duplicates,
  get,
  create,
  update(customerRoutes.update),
  update(customerRoutes.patch),
  archive,
  restore,
  remove,
];
