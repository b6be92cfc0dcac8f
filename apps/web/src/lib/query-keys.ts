import type { InvoiceListParams, JobListParams, ListParams, ScheduleParams } from '@otto/api-contract';

/** Query keys of everything customer-shaped in the cache. */
export const customerKeys = {
  all: ['customers'] as const,
  lists: () => [...customerKeys.all, 'list'] as const,
  list: (params: ListParams) => [...customerKeys.lists(), params] as const,
  details: () => [...customerKeys.all, 'detail'] as const,
  detail: (id: string) => [...customerKeys.details(), id] as const,
  /**
   * A customer's notes and service addresses (GET /customers/:id/details), under that customer's
   * detail key: whatever makes the customer stale (a change event naming them, a save) makes these
   * stale too.
   */
  notesAndAddresses: (id: string) => [...customerKeys.detail(id), 'notes-and-addresses'] as const,
};

/** Query keys of everything job-shaped in the cache, a customer's jobs included. */
export const jobKeys = {
  all: ['jobs'] as const,
  lists: () => [...jobKeys.all, 'list'] as const,
  list: (params: JobListParams) => [...jobKeys.lists(), params] as const,
  allCounts: () => [...jobKeys.all, 'counts'] as const,
  counts: (params: JobListParams) => [...jobKeys.allCounts(), params] as const,
  details: () => [...jobKeys.all, 'detail'] as const,
  detail: (id: string) => [...jobKeys.details(), id] as const,
  /** The schedule's ranges (GET /jobs/schedule). */
  schedules: () => [...jobKeys.all, 'schedule'] as const,
  schedule: (params: ScheduleParams) => [...jobKeys.schedules(), params] as const,
};

/** Query keys of invoices (lists, a job's or a customer's included, and details); invoice, job, customer and settings changes make them stale. */
export const invoiceKeys = {
  all: ['invoices'] as const,
  lists: () => [...invoiceKeys.all, 'list'] as const,
  list: (params: InvoiceListParams) => [...invoiceKeys.lists(), params] as const,
  /** The invoice a job is on (a job's screen), under the lists: whatever stales them stales it. */
  ofJob: (jobId: string) => [...invoiceKeys.lists(), 'job', jobId] as const,
  details: () => [...invoiceKeys.all, 'detail'] as const,
  detail: (id: string) => [...invoiceKeys.details(), id] as const,
};

/** Query keys of the business's details (Settings, and what a new invoice starts from). */
export const settingsKeys = {
  all: ['settings'] as const,
  business: () => [...settingsKeys.all, 'business'] as const,
};

/** Query keys of the reports (the Overview); any customer or job change makes them stale. */
export const reportKeys = {
  all: ['reports'] as const,
  summary: (tz: string) => [...reportKeys.all, 'summary', tz] as const,
};
