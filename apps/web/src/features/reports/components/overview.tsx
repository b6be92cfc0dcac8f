import { parseCalendarDate, type ReportSummary } from '@otto/api-contract';
import { EmptyState, buttonClassName } from '@otto/ui';
import { Link } from 'react-router';
import { formatCount, formatMoney } from '../../../lib/format';
import { LoadErrorNotice } from '../../../lib/load-error-notice';
import { paths } from '../../../lib/paths';
import { useSummary } from '../api/get-summary';
import { BarChart, type BarGroup } from './bar-chart';
import { OwedPanel } from './owed-panel';
import { StatusChart } from './status-chart';
import { WeekPanel } from './week-panel';
import './overview.css';

// Months are formatted as UTC dates of their first day: the label is the calendar month itself.
const monthShort = new Intl.DateTimeFormat(undefined, { month: 'short', timeZone: 'UTC' });
const monthLong = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

function monthDate(month: string): number {
  const { year, month: m } = parseCalendarDate(month);
  return Date.UTC(year, m - 1, 1);
}

const monthName = (month: string) => monthLong.format(monthDate(month));

function paidGroups(months: ReportSummary['paid_per_month']): BarGroup[] {
  return months.map((m) => ({
    key: m.month,
    label: monthShort.format(monthDate(m.month)),
    title: monthName(m.month),
    values: [
      {
        value: m.paid_cents,
        text: formatMoney(m.paid_cents),
        describe: `${monthName(m.month)}: ${formatMoney(m.paid_cents)} paid on ${formatCount(m.jobs, 'job')}.`,
        href: paths.jobs.list.href({ status: 'paid', paid: m.month }),
      },
      {
        value: m.previous_year.paid_cents,
        text: formatMoney(m.previous_year.paid_cents),
        describe: `${monthName(m.previous_year.month)}: ${formatMoney(m.previous_year.paid_cents)} paid on ${formatCount(m.previous_year.jobs, 'job')}.`,
        href: paths.jobs.list.href({ status: 'paid', paid: m.previous_year.month }),
      },
    ],
  }));
}

/**
 * "November so far: 1,250.00. November 2025 in all: 980.00." A month under way is not set against
 * a whole month as a percentage: that comparison would mislead until the month ends.
 */
function paidSummary(months: ReportSummary['paid_per_month']): string {
  const current = months.at(-1);
  if (!current) return '';
  const { month, paid_cents: now, previous_year: then } = current;
  return `${monthName(month)} so far: ${formatMoney(now)}. ${monthName(then.month)} in all: ${formatMoney(then.paid_cents)}. Choose a bar to see its jobs.`;
}

function customerGroups(months: ReportSummary['new_customers_per_month']): BarGroup[] {
  return months.map((m) => ({
    key: m.month,
    label: monthShort.format(monthDate(m.month)),
    title: monthName(m.month),
    values: [{ value: m.customers, text: String(m.customers), describe: `${monthName(m.month)}: ${formatCount(m.customers, 'new customer')}.` }],
  }));
}

/** The Overview: this week, money owed, paid per month, jobs by status, new customers per month. */
export function Overview() {
  const summary = useSummary();
  if (summary.isPending) return <p role="status">Loading the overview…</p>;
  if (summary.isError && !summary.data) {
    return <LoadErrorNotice title="The overview could not be loaded" error={summary.error} onRetry={() => void summary.refetch()} />;
  }
  const s = summary.data;
  const newCustomers = s.new_customers_per_month.reduce((n, m) => n + m.customers, 0);
  return (
    <div className="overview" aria-busy={summary.isFetching}>
      {summary.isError && <LoadErrorNotice title="The overview could not be refreshed" error={summary.error} onRetry={() => void summary.refetch()} />}
      {s.jobs_by_status.all === 0 ? (
        <EmptyState
          headingLevel={2}
          title="No jobs yet"
          description="This week's work, money owed and what was paid each month appear here once you add jobs."
          action={
            <Link className={buttonClassName({ variant: 'primary' })} to={paths.jobs.new.href()}>
              New job
            </Link>
          }
        />
      ) : (
        <>
          <WeekPanel week={s.week} now={Date.now()} />
          {/* The two-bar chart gets the page's width: twelve months of pairs need it to stay easy to point at. */}
          <div className="overview-panel">
            <BarChart
              title="Paid per month"
              summary={paidSummary(s.paid_per_month)}
              series={[{ name: 'Paid' }, { name: 'Same month a year earlier' }]}
              groupName="Month"
              groups={paidGroups(s.paid_per_month)}
              formatTick={(cents) => compact.format(cents / 100)}
            />
          </div>
          <div className="overview__pair">
            <OwedPanel owed={s.owed} toInvoice={s.jobs_by_status.completed} />
            <div className="overview-panel">
              <StatusChart counts={s.jobs_by_status} />
            </div>
          </div>
          <div className="overview-panel">
            <NewCustomersChart months={s.new_customers_per_month} total={newCustomers} />
          </div>
        </>
      )}
      {s.jobs_by_status.all === 0 && (
        <div className="overview-panel">
          <NewCustomersChart months={s.new_customers_per_month} total={newCustomers} />
        </div>
      )}
    </div>
  );
}

function NewCustomersChart({ months, total }: { months: ReportSummary['new_customers_per_month']; total: number }) {
  return (
    <BarChart
      title="New customers per month"
      summary={`${formatCount(total, 'new customer')} in the last ${months.length} months.`}
      series={[{ name: 'New customers' }]}
      groupName="Month"
      groups={customerGroups(months)}
      formatTick={(n) => compact.format(n)}
    />
  );
}
