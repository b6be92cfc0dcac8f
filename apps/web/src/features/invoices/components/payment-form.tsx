import { paymentInputSchema, paymentMethodLabels, paymentMethods, type Invoice, type PaymentInput } from '@otto/api-contract';
import { SelectField, TextField } from '@otto/ui';
import type { FormEvent } from 'react';
import { FormFailure, SaveButton } from '../../../lib/form-parts';
import { formatMoney, moneyInput, parseMoney } from '../../../lib/format';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { today } from '../invoice-words';

interface Values {
  amount: string;
  paidOn: string;
  method: PaymentInput['method'];
  note: string;
}

function validate(values: Values): { input?: PaymentInput; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const amount = parseMoney(values.amount);
  if (amount === null) errors.amount_cents = 'Enter an amount like 125.50.';
  const result = paymentInputSchema.safeParse({ amount_cents: amount ?? 0, paid_on: values.paidOn, method: values.method, note: values.note });
  for (const issue of result.success ? [] : result.error.issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return Object.keys(errors).length === 0 && result.success ? { input: result.data, errors } : { errors };
}

/** Records a payment: the amount (the balance due to start with), the day, how it was paid, a note. */
export function PaymentForm({ invoice, saving, onSubmit }: { invoice: Invoice; saving: boolean; onSubmit: (payment: PaymentInput) => Promise<unknown> }) {
  const form = useValidatedForm<Values, PaymentInput>({
    initial: { amount: moneyInput(invoice.balance_cents), paidOn: today(), method: 'bank_transfer', note: '' },
    validate,
    onSubmit,
    fallbackFailure: 'The payment could not be recorded. Try again.',
  });
  const { values, errors, failure, change } = form;
  const submit = (event: FormEvent<HTMLFormElement>) => form.submit(event, saving);
  return (
    <form className="otto-stack" noValidate onSubmit={submit} aria-busy={saving} aria-labelledby="payment-title">
      <FormFailure message={failure} />
      <div className="otto-form-grid">
        <TextField
          label="Amount"
          data-field="amount_cents"
          inputMode="decimal"
          value={values.amount}
          error={errors.amount_cents}
          hint={`The balance due is ${formatMoney(invoice.balance_cents, invoice.currency || undefined)}.`}
          onChange={(e) => change('amount', e.target.value)}
        />
        <TextField label="Paid on" type="date" data-field="paid_on" value={values.paidOn} error={errors.paid_on} onChange={(e) => change('paidOn', e.target.value)} />
        <SelectField
          label="Method"
          data-field="method"
          value={values.method}
          error={errors.method}
          options={paymentMethods.map((m) => ({ value: m, label: paymentMethodLabels[m] }))}
          onChange={(e) => change('method', e.target.value as Values['method'])}
        />
        <TextField label="Note" data-field="note" value={values.note} error={errors.note} hint="A cheque number, say." onChange={(e) => change('note', e.target.value)} />
      </div>
      <SaveButton saving={saving} label="Record payment" />
    </form>
  );
}
