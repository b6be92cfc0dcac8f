import type { ReportSummary } from '@otto/api-contract';
import { Link } from 'react-router';
import { formatCount, formatMoney } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { invoiceAgeLabels } from '../../invoices/invoice-words';

/**
 * Money owed: the open invoices' balances, by age (days since issued) and the part overdue, each a
 * link to those invoices; invoiced jobs not yet paid, the completed jobs not invoiced yet (money not even asked
 * for), and the customers who owe the most, each a link.
 */
export function OwedPanel({ owed, toInvoice }: { owed: ReportSummary['owed']; toInvoice: number }) {
  return (
    <section className="overview-panel overview-owed" aria-labelledby="overview-owed-title">
      <h2 id="overview-owed-title" className="chart__title">
        Money owed
      </h2>
      <p className="overview-owed__total">{formatMoney(owed.total_cents)}</p>
      <p className="chart__summary">
        {owed.invoices === 0 ? (
          'Every invoice is paid.'
        ) : (
          <>
            On <Link to={paths.invoices.list.href({ status: 'open' })}>{formatCount(owed.invoices, 'open invoice')}</Link>
            {owed.jobs > 0 && (
              <>
                {' '}
                for <Link to={paths.jobs.list.href({ status: 'invoiced' })}>{formatCount(owed.jobs, 'invoiced job')}</Link>
              </>
            )}
            .
          </>
        )}
      </p>
      {owed.invoices > 0 && (
        <>
          <p className={`overview-owed__overdue${owed.overdue.invoices > 0 ? ' overview-owed__overdue--late' : ''}`}>
            {owed.overdue.invoices === 0 ? (
              'Nothing is overdue.'
            ) : (
              <>
                <Link to={paths.invoices.list.href({ status: 'overdue' })}>
                  <strong>{formatMoney(owed.overdue.owed_cents)}</strong> overdue
                </Link>{' '}
                on {formatCount(owed.overdue.invoices, 'invoice')}.
              </>
            )}
          </p>
          <h3 className="overview-owed__heading">By age (days since issued)</h3>
          <ul className="overview-owed__ages">
            {owed.by_age.map((a) => (
              <li key={a.age}>
                <Link to={paths.invoices.list.href({ age: a.age })}>{invoiceAgeLabels[a.age]}</Link>
                <span className="overview-owed__amount">{formatMoney(a.owed_cents)}</span>
                <span className="overview-owed__jobs">{formatCount(a.invoices, 'invoice')}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {toInvoice > 0 && (
        <p className="chart__summary overview-owed__to-invoice">
          <Link to={paths.jobs.list.href({ status: 'completed' })}>{formatCount(toInvoice, 'completed job')}</Link> {toInvoice === 1 ? 'is' : 'are'} not invoiced
          yet.
        </p>
      )}
      {owed.customers.length > 0 && (
        <>
          <h3 className="overview-owed__heading">Who owes the most</h3>
          <ol className="overview-owed__customers">
            {owed.customers.map((c) => (
              <li key={c.customer_id}>
                <Link to={paths.customers.edit.href(c.customer_id)}>{c.customer_name}</Link>
                <span className="overview-owed__amount">{formatMoney(c.owed_cents)}</span>
                <span className="overview-owed__jobs">{formatCount(c.jobs, 'job')}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
