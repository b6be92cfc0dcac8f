import { paymentMethodLabels, type Invoice, type Payment } from '@otto/api-contract';
import { Button } from '@otto/ui';
import { formatMoney } from '../../../lib/format';
import { useSettings } from '../../../lib/settings';
import { formatDay, formatQuantity, invoiceState, invoiceStateLabels, percentText } from '../invoice-words';

export interface InvoiceDocumentProps {
  invoice: Invoice;
  /** Remove a payment (not printed); absent when payments cannot be removed. */
  onRemovePayment?: ((payment: Payment) => void) | undefined;
  /** The payment being removed. */
  removing?: string | undefined;
}

/**
 * The invoice as a document: who it is from and to, its reference and dates, the lines, the totals,
 * the payments and the balance due. The print stylesheet prints this and nothing else.
 */
export function InvoiceDocument({ invoice, onRemovePayment, removing }: InvoiceDocumentProps) {
  const { currency } = useSettings();
  // Its own currency, as issued; the one set here for an invoice made without one.
  const money = (cents: number) => formatMoney(cents, invoice.currency || currency);
  const state = invoiceState(invoice);
  const { seller } = invoice;
  const discounted = invoice.lines.some((l) => l.discount_bp > 0);
  return (
    <article className="invoice-doc" aria-labelledby="invoice-doc-title" data-state={state}>
      <header className="invoice-doc__head">
        <div className="invoice-doc__seller">
          <p className="invoice-doc__seller-name">{seller.name || 'Your business'}</p>
          {seller.address && <p className="invoice-doc__address">{seller.address}</p>}
          {seller.tax_number && <p>Tax number: {seller.tax_number}</p>}
        </div>
        <div className="invoice-doc__meta">
          <h2 id="invoice-doc-title" className="invoice-doc__title">
            Invoice {invoice.reference}
          </h2>
          {state !== 'open' && <p className={`invoice-doc__stamp invoice-doc__stamp--${state}`}>{invoiceStateLabels[state]}</p>}
          <dl className="invoice-doc__dates">
            <div>
              <dt>Issued</dt>
              <dd>{formatDay(invoice.issue_date)}</dd>
            </div>
            <div>
              <dt>Due</dt>
              <dd>{formatDay(invoice.due_date)}</dd>
            </div>
          </dl>
        </div>
      </header>
      <section className="invoice-doc__to" aria-label="Billed to">
        <h3 className="invoice-doc__label">Billed to</h3>
        <p>{invoice.customer_name}</p>
      </section>
      <div className="invoice-doc__scroll">
        <table className="invoice-doc__lines">
          <caption className="otto-visually-hidden">Lines of invoice {invoice.reference}</caption>
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col" className="otto-numeric">
                Qty
              </th>
              <th scope="col" className="otto-numeric">
                Unit price
              </th>
              {discounted && (
                <th scope="col" className="otto-numeric">
                  Discount
                </th>
              )}
              <th scope="col" className="otto-numeric">
                Tax
              </th>
              <th scope="col" className="otto-numeric">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((line, i) => (
              <tr key={i}>
                <td>{line.description}</td>
                <td className="otto-numeric" data-label="Qty">
                  {formatQuantity(line.quantity)}
                </td>
                <td className="otto-numeric" data-label="Unit price">
                  {money(line.unit_price_cents)}
                </td>
                {discounted && (
                  <td className="otto-numeric" data-label="Discount">
                    {line.discount_bp > 0 ? `${percentText(line.discount_bp)} % (−${money(line.discount_cents)})` : '–'}
                  </td>
                )}
                <td className="otto-numeric" data-label="Tax">
                  {percentText(line.tax_rate_bp)} %
                </td>
                <td className="otto-numeric" data-label="Amount">
                  {money(line.amount_cents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="invoice-totals invoice-doc__totals">
        <div>
          <dt>Subtotal</dt>
          <dd>{money(invoice.subtotal_cents)}</dd>
        </div>
        {invoice.discount_cents > 0 && (
          <div>
            <dt>Discount</dt>
            <dd>−{money(invoice.discount_cents)}</dd>
          </div>
        )}
        <div>
          <dt>Tax</dt>
          <dd>{money(invoice.tax_cents)}</dd>
        </div>
        <div className="invoice-totals__total">
          <dt>Total</dt>
          <dd>{money(invoice.total_cents)}</dd>
        </div>
        {invoice.paid_cents > 0 && (
          <div>
            <dt>Paid</dt>
            <dd>−{money(invoice.paid_cents)}</dd>
          </div>
        )}
        {invoice.status !== 'void' && (
          <div className="invoice-totals__balance">
            <dt>Balance due</dt>
            <dd>{money(invoice.balance_cents)}</dd>
          </div>
        )}
      </dl>
      {invoice.payments.length > 0 && (
        <section className="invoice-doc__payments" aria-labelledby="invoice-payments-title">
          <h3 id="invoice-payments-title" className="invoice-doc__label">
            Payments received
          </h3>
          <ul className="invoice-payments">
            {invoice.payments.map((p) => (
              <li key={p.id} className="invoice-payments__item">
                <span>
                  {formatDay(p.paid_on)} · {paymentMethodLabels[p.method]}
                  {p.note && <span className="otto-muted"> · {p.note}</span>}
                </span>
                <span className="invoice-payments__amount">{money(p.amount_cents)}</span>
                {onRemovePayment && (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="invoice-no-print"
                    loading={removing === p.id}
                    aria-label={`Remove the payment of ${money(p.amount_cents)} on ${formatDay(p.paid_on)}`}
                    onClick={() => onRemovePayment(p)}
                  >
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {invoice.note && (
        <section className="invoice-doc__note" aria-label="Note">
          <p>{invoice.note}</p>
        </section>
      )}
    </article>
  );
}
