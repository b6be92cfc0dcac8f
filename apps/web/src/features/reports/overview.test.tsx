import { reportSummarySchema } from '@otto/api-contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browserTimeZone } from '../../lib/browser-time-zone';
import { formatMoney } from '../../lib/format';
import { fakeBackendHandle } from '../../test/fake-backend-handle';
import { renderApp } from '../../test/render-app';

vi.mock('../../backend/start-backend', () => ({ ensureBackend: async () => fakeBackendHandle() }));

type Api = Awaited<ReturnType<typeof renderApp>>['api'];

async function summaryOf(api: Api) {
  const filter = encodeURIComponent(JSON.stringify({ tz: browserTimeZone() }));
  return reportSummarySchema.parse(await (await api.fetch(new Request(`http://localhost/api/reports/summary?filterJson=${filter}`))).json());
}

const monthName = (month: string) =>
  new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.parse(`${month}-01T00:00:00Z`));

describe('the Overview', () => {
  it('shows money owed, every chart with its table, and is reached from the navigation', async () => {
    const user = userEvent.setup();
    const { api, router } = await renderApp('/biz/customers');
    await user.click(await screen.findByRole('link', { name: 'Overview' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/biz/overview'));
    const owed = api.store.get<{ cents: number }>("SELECT coalesce(sum(price_cents), 0) AS cents FROM jobs WHERE status = 'invoiced'")!.cents;
    const panel = (await screen.findByRole('heading', { name: 'Money owed' })).closest('section') as HTMLElement;
    expect(within(panel).getByText(formatMoney(owed), { selector: '.overview-owed__total' })).toBeTruthy();
    // The completed jobs nobody has invoiced yet, a link to exactly those (issue 39's walkthrough).
    const completed = api.store.get<{ n: number }>("SELECT count(*) AS n FROM jobs WHERE status = 'completed' AND archived_dt IS NULL")!.n;
    expect(completed).toBeGreaterThan(0);
    const toInvoice = within(panel).getByRole('link', { name: `${completed} completed job${completed === 1 ? '' : 's'}` });
    expect(toInvoice.getAttribute('href')).toBe('/biz/jobs?status=completed');
    for (const caption of ['Paid per month', 'Jobs by status', 'New customers per month']) {
      const table = screen.getByRole('table', { name: caption });
      expect(within(table).getAllByRole('row').length).toBeGreaterThan(1);
    }
    const paidTable = screen.getByRole('table', { name: 'Paid per month' });
    expect(within(paidTable).getAllByRole('row')).toHaveLength(13);
    expect(screen.getByRole('heading', { name: 'This week' })).toBeTruthy();
  });

  it('opens the job list filtered to a bar’s month through the URL, and back', async () => {
    const user = userEvent.setup();
    const { api, router } = await renderApp('/biz/overview');
    const summary = await summaryOf(api);
    const month = [...summary.paid_per_month].reverse().find((m) => m.jobs > 0);
    expect(month, 'the seed has paid jobs in the last 12 months').toBeDefined();
    const bar = await screen.findByRole('link', { name: new RegExp(`^${monthName(month!.month)}: .* Open these jobs\\.$`) });
    await user.click(bar);
    await waitFor(() => expect(router.state.location.search).toBe(`?status=paid&paid=${month!.month}`));
    expect(await screen.findByText(monthName(month!.month))).toBeTruthy();
    await waitFor(() => {
      const rows = within(screen.getByRole('table', { name: /^Jobs\b/ })).getAllByRole('row').slice(1);
      expect(rows).toHaveLength(Math.min(month!.jobs, 10));
    });
    await user.click(screen.getByRole('button', { name: 'Show every month' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=paid'));
    await router.navigate(-1);
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/biz/overview'));
    expect(await screen.findByRole('heading', { name: 'Paid per month' })).toBeTruthy();
  });

  it('links the jobs still open from before this week to the job list showing exactly those', async () => {
    const user = userEvent.setup();
    const { api, router } = await renderApp('/biz/overview');
    // A job scheduled a month ago and never started: still open from before this week.
    const customer = api.store.get<{ id: number }>('SELECT id FROM customers ORDER BY id LIMIT 1')!;
    const body = { customer_id: String(customer.id), title: 'Gutter clean from last month', status: 'scheduled', scheduled_start_dt: Date.now() - 30 * 86_400_000 };
    const created = await api.fetch(new Request('http://localhost/api/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    expect(created.ok).toBe(true);
    const summary = await summaryOf(api);
    expect(summary.week.before).toBeGreaterThan(0);
    const jobs = summary.week.before === 1 ? '1 job' : `${summary.week.before} jobs`;
    await user.click(await screen.findByRole('link', { name: `${jobs} from before this week` }));
    await waitFor(() => expect(router.state.location.search).toBe(`?open=${summary.week.start}`));
    expect(await screen.findByText(/Showing jobs still open \(scheduled or in progress\) that started before/)).toBeTruthy();
    const tabs = await screen.findByRole('group', { name: 'Filter by status' });
    await waitFor(() => expect(within(tabs).getByRole('button', { name: new RegExp(`^All.*${summary.week.before}`) })).toBeTruthy());
    await waitFor(() => {
      const rows = within(screen.getByRole('table', { name: /^Jobs\b/ })).getAllByRole('row').slice(1);
      expect(rows).toHaveLength(Math.min(summary.week.before, 10));
    });
    await user.click(screen.getByRole('button', { name: 'Show every job' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('ignores a paid month in the URL that is not a month', async () => {
    const { api } = await renderApp('/biz/jobs?paid=2026-13');
    const total = api.store.get<{ n: number }>('SELECT count(*) AS n FROM jobs')!.n;
    const tabs = await screen.findByRole('group', { name: 'Filter by status' });
    await waitFor(() => expect(within(tabs).getByRole('button', { name: new RegExp(`^All.*${total}`) })).toBeTruthy());
    expect(screen.queryByText(/Showing jobs paid in/)).toBeNull();
  });

  it('refreshes when a job changes in another tab', async () => {
    const { api } = await renderApp('/biz/overview');
    const panel = (await screen.findByRole('heading', { name: 'Money owed' })).closest('section') as HTMLElement;
    const before = (await summaryOf(api)).owed.total_cents;
    await within(panel).findByText(formatMoney(before), { selector: '.overview-owed__total' });
    const job = api.store.get<{ id: number; price_cents: number }>("SELECT id, price_cents FROM jobs WHERE status = 'completed' AND price_cents > 0 LIMIT 1");
    expect(job, 'the seed has a completed job').toBeDefined();
    // Another tab sends the invoice: straight to the mock API, never through this app.
    const res = await api.fetch(
      new Request(`http://localhost/api/jobs/${job!.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"status":"invoiced"}' }),
    );
    expect(res.status).toBe(200);
    expect(await within(panel).findByText(formatMoney(before + job!.price_cents), { selector: '.overview-owed__total' })).toBeTruthy();
  });

  it('says so in words when there are no jobs yet', async () => {
    await renderApp('/biz/overview', { seed: { count: 0 } });
    expect(await screen.findByText('No jobs yet')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'New customers per month' })).toBeTruthy();
  });
});
