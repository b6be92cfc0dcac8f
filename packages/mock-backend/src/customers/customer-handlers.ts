import { customerInputSchema, customerRoutes, defaultSortOrders, limits, listParamsRangeSchema, type Customer, type CustomerInput } from '@otto/api-contract';
import type { SqlClient } from '../sql/types';
import { ApiError, toApiIssues } from '../runtime/api-error';
import { defineHandler } from '../runtime/handler';
import { parseId } from '../runtime/ids';
import { checkPrecondition } from '../runtime/precondition';
import { customerDetailsHandlers } from './customer-details';
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

const list = defineHandler(customerRoutes.list, async ({ sql, filter }) => {
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
  const page = filter.archived === true ? await listArchivedCustomers(sql, params) : await listCustomers(sql, params);
  return { data: page.rows, totalCount: page.total };
});

const duplicates = defineHandler(customerRoutes.duplicates, async ({ sql, filter }) => {
  const excludeId = filter.excludeId === undefined ? undefined : (parseId(filter.excludeId) ?? undefined);
  return {
    data: await findCustomerMatches(sql, {
      ...(filter.email !== undefined ? { email: filter.email } : {}),
      ...(filter.phone !== undefined ? { phone: filter.phone } : {}),
      ...(excludeId !== undefined ? { excludeId } : {}),
    }),
  };
});

/** The customer, after checking If-Match against its version. */
async function requireCustomer(db: SqlClient, idText: string, ifMatch: number[] | '*' | undefined): Promise<Customer> {
  const customer = await findCustomer(db, requireId(idText), { lock: true });
  if (!customer) throw notFound(idText);
  checkPrecondition(ifMatch, customer.modified_dt, `Customer ${JSON.stringify(idText)}`);
  return customer;
}

const archive = defineHandler(customerRoutes.archive, async ({ sql, params, now, ifMatch }) => {
  const customer = await requireCustomer(sql, params.id, ifMatch);
  if (customer.archived_dt != null) return { data: customer, changes: [] };
  return { data: await setCustomerArchived(sql, Number(customer.id), true, now()) };
});

const restore = defineHandler(customerRoutes.restore, async ({ sql, params, now, ifMatch }) => {
  const customer = await requireCustomer(sql, params.id, ifMatch);
  if (customer.archived_dt == null) return { data: customer, changes: [] };
  return { data: await setCustomerArchived(sql, Number(customer.id), false, now()) };
});

const remove = defineHandler(customerRoutes.remove, async ({ sql, params, ifMatch }) => {
  const customer = await requireCustomer(sql, params.id, ifMatch);
  if (customer.archived_dt == null) {
    throw new ApiError(409, 'CONFLICT', `${customer.full_name} is not archived. Archive them first; only archived customers can be deleted for good.`);
  }
  const jobs = await countJobsOfCustomer(sql, Number(customer.id));
  if (jobs > 0) {
    throw new ApiError(
      409,
      'CONFLICT',
      `${customer.full_name} still has ${jobs === 1 ? 'a job' : `${jobs} jobs`}. Delete ${jobs === 1 ? 'it' : 'them'} for good first, or keep the customer archived.`,
    );
  }
  // Invoices are the business's records (decision 0161): a customer who was invoiced stays, archived.
  const invoices = Number((await sql.get<{ n: number }>('SELECT count(*) AS n FROM invoices WHERE customer_id = ?', [Number(customer.id)]))?.n ?? 0);
  if (invoices > 0) {
    throw new ApiError(409, 'CONFLICT', `${customer.full_name} has ${invoices === 1 ? 'an invoice' : `${invoices} invoices`}, kept for your records: the customer stays archived.`);
  }
  await deleteCustomer(sql, Number(customer.id));
  return { data: customer };
});

const get = defineHandler(customerRoutes.get, async ({ sql, params }) => {
  const customer = await findCustomer(sql, requireId(params.id));
  if (!customer) throw notFound(params.id);
  return { data: customer };
});

const create = defineHandler(customerRoutes.create, async ({ sql, body, now }) => ({
  data: await insertCustomer(sql, validInput(body), now()),
}));

const update = (route: typeof customerRoutes.update | typeof customerRoutes.patch) =>
  defineHandler(route, async ({ sql, params, body, now, ifMatch }) => {
    const id = requireId(params.id);
    if (ifMatch !== undefined) {
      const current = await findCustomer(sql, id, { lock: true });
      if (!current) throw notFound(params.id);
      checkPrecondition(ifMatch, current.modified_dt, `Customer ${JSON.stringify(params.id)}`);
    }
    const customer = await updateCustomer(sql, id, validInput(body), now());
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
  ...customerDetailsHandlers,
];
