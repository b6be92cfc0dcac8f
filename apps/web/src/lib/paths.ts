import type { InvoiceAge, JobStatus } from '@otto/api-contract';

/**
 * The job list's filter as its URL carries it: a status tab, a month paid in (`YYYY-MM`, local), and
 * a day before which jobs still open started (`YYYY-MM-DD`, local).
 */
export interface JobListLink {
  status?: JobStatus;
  paid?: string;
  open?: string;
}

/** The invoice list's filter as its URL carries it: a status tab, an age (open ones, by days since issued), a customer. */
export interface InvoiceListLink {
  status?: 'open' | 'overdue' | 'paid' | 'void';
  age?: InvoiceAge;
  customer?: string;
}

/** Every route of the app in one place (spec section 2). */
export const paths = {
  home: { path: '/', href: () => '/' },
  biz: { path: '/biz', href: () => '/biz' },
  overview: { path: '/biz/overview', href: () => '/biz/overview' },
  customers: {
    list: { path: '/biz/customers', href: () => '/biz/customers' },
    new: { path: '/biz/customers/new', href: () => '/biz/customers/new' },
    edit: { path: '/biz/customers/edit/:id', href: (id: string) => `/biz/customers/edit/${encodeURIComponent(id)}` },
  },
  settings: { path: '/biz/settings', href: () => '/biz/settings' },
  /** The schedule: `view` day or week (the default), `date` a day it shows (`YYYY-MM-DD`, local; today by default). */
  schedule: {
    path: '/biz/schedule',
    href: (place: { view?: 'day' | 'week'; date?: string } = {}) => {
      const query = new URLSearchParams();
      if (place.view === 'day') query.set('view', 'day');
      if (place.date) query.set('date', place.date);
      const text = query.toString();
      return text ? `/biz/schedule?${text}` : '/biz/schedule';
    },
  },
  jobs: {
    list: {
      path: '/biz/jobs',
      href: (filter: JobListLink = {}) => {
        const query = new URLSearchParams();
        if (filter.status) query.set('status', filter.status);
        if (filter.paid) query.set('paid', filter.paid);
        if (filter.open) query.set('open', filter.open);
        const text = query.toString();
        return text ? `/biz/jobs?${text}` : '/biz/jobs';
      },
    },
    new: {
      path: '/biz/jobs/new',
      href: (customerId?: string) =>
        customerId ? `/biz/jobs/new?customerId=${encodeURIComponent(customerId)}` : '/biz/jobs/new',
    },
    edit: { path: '/biz/jobs/edit', href: (id: string) => `/biz/jobs/edit?id=${encodeURIComponent(id)}` },
  },
  /** Invoices and their payments (decision 0161). */
  invoices: {
    list: {
      path: '/biz/invoices',
      href: (filter: InvoiceListLink = {}) => {
        const query = new URLSearchParams();
        if (filter.status) query.set('status', filter.status);
        if (filter.age) query.set('age', filter.age);
        if (filter.customer) query.set('customer', filter.customer);
        const text = query.toString();
        return text ? `/biz/invoices?${text}` : '/biz/invoices';
      },
    },
    /** A new invoice for completed jobs (`?jobs=1,2`) or a customer (`?customer=7`). */
    new: {
      path: '/biz/invoices/new',
      href: (from: { jobs?: readonly string[]; customer?: string } = {}) => {
        const query = new URLSearchParams();
        if (from.jobs?.length) query.set('jobs', from.jobs.join(','));
        if (from.customer) query.set('customer', from.customer);
        const text = query.toString().replaceAll('%2C', ',');
        return text ? `/biz/invoices/new?${text}` : '/biz/invoices/new';
      },
    },
    view: { path: '/biz/invoices/:id', href: (id: string) => `/biz/invoices/${encodeURIComponent(id)}` },
    edit: { path: '/biz/invoices/:id/edit', href: (id: string) => `/biz/invoices/${encodeURIComponent(id)}/edit` },
  },
  /** Archived customers and jobs: restore, or delete for good (decision 0091). */
  archived: { path: '/biz/archived', href: () => '/biz/archived' },
} as const;
