// What a write waiting for, or refused by, the team server was, in words (sync mode, decision 0163).
import { jobStatusLabels, type JobStatus } from '@otto/api-contract';
import type { SyncNotice } from '@otto/mock-backend/browser';
import { paths } from '../../lib/paths';

/**
 * A write in words: what it was, why the server refused it (a refused one), and where its record is.
 * @example
 * const { what, why, href } = describeNotice(notice); // 'Moving job 12 to Cancelled', 'The job is Scheduled now…', '/biz/jobs/edit?id=12'
 */
export function describeNotice(notice: Omit<SyncNotice, 'answer'> & { answer?: SyncNotice['answer'] }): {
  what: string;
  why: string;
  href: string | undefined;
  /** What the person wrote in it (see textOf). */
  yours: { label: string; text: string }[];
} {
  const body = (notice.body ?? {}) as { full_name?: string; title?: string; status?: JobStatus };
  const [, kind, id, action] = notice.path.split('?')[0]!.split('/');
  const name = body.full_name ?? body.title;
  const quoted = name ? ` “${name}”` : '';
  let what = 'A change';
  if (kind === 'customers' && !id && notice.method === 'POST') what = `New customer${quoted}`;
  else if (kind === 'customers' && id && !action) what = notice.method === 'DELETE' ? `Deleting customer ${id}` : `Changes to customer${quoted}`;
  else if (kind === 'customers' && action === 'details') what = `Notes and addresses of customer ${id}`;
  else if (kind === 'jobs' && !id && notice.method === 'POST') what = `New job${quoted}`;
  else if (kind === 'jobs' && action === 'move' && body.status) what = `Moving job ${id} to ${jobStatusLabels[body.status]}`;
  else if (kind === 'jobs' && id && !action) what = notice.method === 'DELETE' ? `Deleting job ${id}` : `Changes to job${quoted}`;
  else if (kind === 'invoices' && !id) what = 'New invoice';
  else if (kind === 'invoices' && id) what = `Invoice ${id}: ${action ?? 'changes'}`;
  else if (kind === 'imports') what = action === 'undo' ? 'Undoing the last import' : 'An import';
  const message = (notice.answer?.body as { message?: unknown } | null | undefined)?.message;
  const why = typeof message === 'string' ? message : notice.answer ? 'The team server refused it without saying why.' : '';
  const screens = { customers: paths.customers.edit.href, jobs: paths.jobs.edit.href, invoices: paths.invoices.view.href } as const;
  const screen = kind === 'customers' || kind === 'jobs' || kind === 'invoices' ? screens[kind] : undefined;
  const href = id && screen && notice.method !== 'DELETE' ? screen(id) : undefined;
  return { what, why, href, yours: textOf(notice.body) };
}

const textFields: Record<string, string> = {
  full_name: 'Name',
  title: 'Title',
  description: 'Description',
  notes: 'Notes',
  note: 'Note',
  service_address: 'Service address',
  email: 'Email',
  phone: 'Phone',
};

/**
 * What a person wrote in a write (its text fields, labelled): a refused change's words stay on the
 * device, in its notice, for its author to apply again.
 * @example
 * textOf({ description: 'Replaced the valve', price_cents: 100 }); // [{ label: 'Description', text: 'Replaced the valve' }]
 */
export function textOf(body: unknown): { label: string; text: string }[] {
  if (!body || typeof body !== 'object') return [];
  return Object.entries(textFields)
    .map(([field, label]) => ({ label, text: (body as Record<string, unknown>)[field] }))
    .filter((f): f is { label: string; text: string } => typeof f.text === 'string' && f.text.trim() !== '');
}
