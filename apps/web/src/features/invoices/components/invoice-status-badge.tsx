import type { Invoice } from '@otto/api-contract';
import { Badge, type BadgeTone } from '@otto/ui';
import { invoiceState, invoiceStateLabels, type InvoiceState } from '../invoice-words';

const tones: Record<InvoiceState, BadgeTone> = { open: 'info', overdue: 'danger', paid: 'success', void: 'neutral' };

/** Open, Overdue, Paid or Void. */
export function InvoiceStatusBadge({ invoice }: { invoice: Pick<Invoice, 'status' | 'due_date'> }) {
  const state = invoiceState(invoice);
  return <Badge tone={tones[state]}>{invoiceStateLabels[state]}</Badge>;
}
