// The MSW peer's /api: handlers over plain arrays, written the way mock backends usually are
// (filter, sort and slice on every request; find by id), covering every call the bench times and
// the app's first screens. Bodies are taken as sent: no validation beyond what keeps it answering.
import { jobStatuses, type Customer, type Job, type JobStatus } from '@otto/api-contract';
import { HttpResponse, http, type HttpHandler } from 'msw';
import type { ArrayData } from './seed-arrays';

type Filter = { queryText?: unknown; limit?: unknown; offset?: unknown; status?: unknown; customerId?: unknown; unscheduled?: unknown; from?: unknown; before?: unknown };

function readFilter(request: Request): Filter {
  try {
    const parsed: unknown = JSON.parse(new URL(request.url).searchParams.get('filterJson') ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Filter) : {};
  } catch {
    return {};
  }
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
const newestFirst = (a: { modified_dt: number; id: string }, b: { modified_dt: number; id: string }) =>
  b.modified_dt - a.modified_dt || Number(b.id) - Number(a.id);

function page<T>(rows: T[], filter: Filter): Response {
  const limit = typeof filter.limit === 'number' ? filter.limit : 10;
  const offset = typeof filter.offset === 'number' ? filter.offset : 0;
  return HttpResponse.json(rows.slice(offset, offset + limit), { headers: { 'X-Total-Count': String(rows.length) } });
}

async function body(request: Request): Promise<Record<string, unknown>> {
  try {
    const value: unknown = await request.json();
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const notFound = () => HttpResponse.json({ code: 'NOT_FOUND', message: 'Not found' }, { status: 404 });

/**
 * MSW handlers for customers and jobs over arrays that they change in place.
 * @example
 * setupWorker(...arrayHandlers(seedArrays(500, true, 42, Date.now())));
 */
export function arrayHandlers(data: ArrayData): HttpHandler[] {
  const { customers, jobs } = data;
  const customerMatches = (filter: Filter) => {
    const query = text(filter.queryText);
    const rows = query
      ? customers.filter((c) => c.full_name.toLowerCase().includes(query) || c.email.toLowerCase().includes(query) || c.phone.toLowerCase().includes(query))
      : customers.slice();
    return rows.sort(newestFirst);
  };
  const jobMatches = (filter: Filter, withStatus: boolean) => {
    const query = text(filter.queryText);
    const customerId = typeof filter.customerId === 'string' ? filter.customerId : undefined;
    const status = withStatus && typeof filter.status === 'string' ? filter.status : undefined;
    const unscheduled = filter.unscheduled === true;
    return jobs.filter(
      (j) =>
        (!unscheduled || (j.scheduled_start_dt === null && ['quote', 'scheduled', 'in_progress'].includes(j.status))) &&
        (!status || j.status === status) &&
        (!customerId || j.customer_id === customerId) &&
        (!query ||
          j.title.toLowerCase().includes(query) ||
          j.description.toLowerCase().includes(query) ||
          j.service_address.toLowerCase().includes(query) ||
          j.customer_name.toLowerCase().includes(query)),
    );
  };
  const saveCustomer = async ({ request, params }: { request: Request; params: Record<string, unknown> }) => {
    const customer = customers.find((c) => c.id === params.id);
    if (!customer) return notFound();
    const fields = await body(request);
    Object.assign(customer, {
      full_name: String(fields.full_name ?? customer.full_name),
      email: String(fields.email ?? customer.email),
      phone: String(fields.phone ?? customer.phone),
      modified_dt: Date.now(),
    });
    for (const job of jobs) if (job.customer_id === customer.id) job.customer_name = customer.full_name;
    return HttpResponse.json(customer);
  };
  const saveJob = async ({ request, params }: { request: Request; params: Record<string, unknown> }) => {
    const job = jobs.find((j) => j.id === params.id);
    if (!job) return notFound();
    const fields = await body(request);
    const now = Date.now();
    const status = typeof fields.status === 'string' ? (fields.status as JobStatus) : job.status;
    Object.assign(job, { ...fields, id: job.id, modified_dt: now });
    if (status !== job.status || fields.status !== undefined) job.status_dates = { ...job.status_dates, [status]: now };
    job.customer_name = customers.find((c) => c.id === job.customer_id)?.full_name ?? '';
    return HttpResponse.json(job);
  };

  return [
    http.get('/api/customers', ({ request }) => {
      const filter = readFilter(request);
      return page(customerMatches(filter), filter);
    }),
    http.get('/api/customers/:id', ({ params }) => {
      const customer = customers.find((c) => c.id === params.id);
      return customer ? HttpResponse.json(customer) : notFound();
    }),
    http.post('/api/customers', async ({ request }) => {
      const fields = await body(request);
      const now = Date.now();
      const customer: Customer = {
        id: String(customers.length + 1),
        full_name: String(fields.full_name ?? ''),
        email: String(fields.email ?? ''),
        phone: String(fields.phone ?? ''),
        created_dt: now,
        modified_dt: now,
      };
      customers.push(customer);
      return HttpResponse.json(customer);
    }),
    http.put('/api/customers/:id', saveCustomer),
    http.patch('/api/customers/:id', saveCustomer),
    http.get('/api/jobs/counts', ({ request }) => {
      const counts: Record<string, number> = { all: 0, ...Object.fromEntries(jobStatuses.map((s) => [s, 0])) };
      for (const job of jobMatches(readFilter(request), false)) {
        counts[job.status] = (counts[job.status] ?? 0) + 1;
        counts.all = (counts.all ?? 0) + 1;
      }
      return HttpResponse.json(counts);
    }),
    http.get('/api/jobs', ({ request }) => {
      const filter = readFilter(request);
      return page(jobMatches(filter, true).sort(newestFirst), filter);
    }),
    http.get('/api/jobs/schedule', ({ request }) => {
      // UTC days only, as the bench asks: the way a hand-written mock would do it.
      const filter = readFilter(request) as Filter & { start?: unknown; days?: unknown; perCell?: unknown };
      const from = Date.parse(`${String(filter.start)}T00:00:00Z`);
      const days = Number(filter.days ?? 7);
      const perCell = Number(filter.perCell ?? 6);
      const before = from + days * 86_400_000;
      const dayList = Array.from({ length: days }, (_, i) => ({ date: new Date(from + i * 86_400_000).toISOString().slice(0, 10), start_dt: from + i * 86_400_000, end_dt: from + (i + 1) * 86_400_000 }));
      const inRange = jobs
        .filter((j) => j.scheduled_start_dt !== null && j.status !== 'cancelled' && j.scheduled_start_dt < before && (j.scheduled_end_dt ?? j.scheduled_start_dt) > from)
        .sort((a, b) => (a.scheduled_start_dt ?? 0) - (b.scheduled_start_dt ?? 0) || Number(a.id) - Number(b.id));
      const cells = new Map<string, number>();
      const shown: Job[] = [];
      for (const job of inRange) {
        const day = dayList[Math.max(0, Math.floor(((job.scheduled_start_dt ?? 0) - from) / 86_400_000))]?.date ?? '';
        const key = `${job.assignee}\u0000${day}`;
        const n = (cells.get(key) ?? 0) + 1;
        cells.set(key, n);
        if (n <= perCell) shown.push(job);
      }
      const more = [...cells].filter(([, n]) => n > perCell).map(([key, n]) => ({ assignee: key.split('\u0000')[0], date: key.split('\u0000')[1], count: n - perCell }));
      const assignees = [...new Set(jobs.map((j) => j.assignee).filter(Boolean))].sort();
      return HttpResponse.json({ days: dayList, jobs: shown.slice(0, 1000), more, truncated: shown.length > 1000, assignees });
    }),
    http.get('/api/jobs/:id', ({ params }) => {
      const job = jobs.find((j) => j.id === params.id);
      return job ? HttpResponse.json(job) : notFound();
    }),
    http.post('/api/jobs', async ({ request }) => {
      const fields = await body(request);
      const now = Date.now();
      const status = (typeof fields.status === 'string' ? fields.status : 'quote') as JobStatus;
      const customerId = String(fields.customer_id ?? '');
      const job: Job = {
        id: String(jobs.length + 1),
        customer_id: customerId,
        customer_name: customers.find((c) => c.id === customerId)?.full_name ?? '',
        title: String(fields.title ?? ''),
        description: String(fields.description ?? ''),
        service_address: String(fields.service_address ?? ''),
        status,
        assignee: String(fields.assignee ?? ''),
        scheduled_start_dt: typeof fields.scheduled_start_dt === 'number' ? fields.scheduled_start_dt : null,
        scheduled_end_dt: typeof fields.scheduled_end_dt === 'number' ? fields.scheduled_end_dt : null,
        price_cents: typeof fields.price_cents === 'number' ? fields.price_cents : 0,
        created_dt: now,
        modified_dt: now,
        status_dates: { ...(Object.fromEntries(jobStatuses.map((s) => [s, null])) as Job['status_dates']), [status]: now },
      };
      jobs.push(job);
      return HttpResponse.json(job);
    }),
    http.put('/api/jobs/:id', saveJob),
    http.patch('/api/jobs/:id', saveJob),
  ];
}
