import { businessSettingsInputSchema, invoiceReference, type BusinessSettings, type BusinessSettingsInput } from '@otto/api-contract';
import { Button, Notice, TextAreaField, TextField, useToast } from '@otto/ui';
import type { FormEvent } from 'react';
import { FormFailure, SaveButton } from '../../../lib/form-parts';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useBusinessSettings, useSaveBusinessSettings } from '../api/business-settings';
import { parsePercent, percentText } from '../invoice-words';

interface Values {
  name: string;
  address: string;
  tax_number: string;
  invoice_prefix: string;
  tax: string;
  terms: string;
}

function values(s: BusinessSettings): Values {
  return {
    name: s.name,
    address: s.address,
    tax_number: s.tax_number,
    invoice_prefix: s.invoice_prefix,
    tax: percentText(s.default_tax_rate_bp),
    terms: String(s.payment_terms_days),
  };
}

function validate(v: Values): { input?: BusinessSettingsInput; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const tax = parsePercent(v.tax);
  if (tax === null) errors.default_tax_rate_bp = 'Enter a percentage like 20 or 12.5.';
  const terms = /^\s*\d+\s*$/.test(v.terms) ? Number(v.terms) : null;
  if (terms === null) errors.payment_terms_days = 'Enter a whole number of days, like 30.';
  const result = businessSettingsInputSchema.safeParse({
    name: v.name,
    address: v.address,
    tax_number: v.tax_number,
    invoice_prefix: v.invoice_prefix,
    default_tax_rate_bp: tax ?? 0,
    payment_terms_days: terms ?? 0,
  });
  for (const issue of result.success ? [] : result.error.issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return Object.keys(errors).length === 0 && result.success ? { input: result.data, errors } : { errors };
}

/** Settings › Business details: what every new invoice carries, saved for the business (not this browser). */
export function BusinessDetails() {
  const settings = useBusinessSettings();
  return (
    <section aria-labelledby="business-title" className="otto-card settings-card">
      <h2 id="business-title" className="otto-card__title">
        Business details
      </h2>
      {settings.isPending ? (
        <p role="status">Loading your business details…</p>
      ) : settings.isError ? (
        <Notice
          tone="error"
          title="Your business details could not be loaded"
          action={
            <Button size="sm" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          }
        >
          {settings.error.message}
        </Notice>
      ) : (
        <BusinessDetailsForm key={settings.data.modified_dt} settings={settings.data} />
      )}
    </section>
  );
}

function BusinessDetailsForm({ settings }: { settings: BusinessSettings }) {
  const save = useSaveBusinessSettings();
  const toast = useToast();
  const form = useValidatedForm<Values, BusinessSettingsInput>({
    initial: values(settings),
    validate,
    onSubmit: async (input) => {
      await save.mutateAsync({ input, version: settings.modified_dt });
      toast.show('Your business details were saved. New invoices carry them.', { tone: 'success', kind: 'settings' });
    },
    fallbackFailure: 'Your business details could not be saved. Try again.',
  });
  const { errors, failure, change } = form;
  const v = form.values;
  const submit = (event: FormEvent<HTMLFormElement>) => form.submit(event, save.isPending);
  const field = (name: keyof Values, wire: string, label: string, extra: Record<string, unknown> = {}) => (
    <TextField label={label} name={wire} data-field={wire} value={v[name]} error={errors[wire]} onChange={(e) => change(name, e.target.value)} {...extra} />
  );
  return (
    <form className="otto-stack" noValidate onSubmit={submit} aria-busy={save.isPending}>
      <p className="otto-muted">Printed on every new invoice; invoices already issued keep the details they were issued with.</p>
      <FormFailure message={failure} />
      <div className="otto-form-grid">
        {field('name', 'name', 'Business name', { autoComplete: 'organization' })}
        {field('tax_number', 'tax_number', 'Tax number', { hint: 'VAT or sales tax registration number, if you have one.' })}
        <TextAreaField
          label="Address"
          name="address"
          data-field="address"
          className="otto-form-grid__full"
          rows={3}
          value={v.address}
          error={errors.address}
          onChange={(e) => change('address', e.target.value)}
        />
        {field('invoice_prefix', 'invoice_prefix', 'Invoice prefix', {
          hint: `The next invoice is ${invoiceReference(v.invoice_prefix.trim(), settings.next_invoice_number)}.`,
        })}
        <div>
          <p className="settings-next-number">
            Next invoice number: <strong>{settings.next_invoice_number}</strong>
          </p>
          <p className="otto-muted">Numbers go up by one and are never reused, a void invoice keeping its own.</p>
        </div>
        {field('tax', 'default_tax_rate_bp', 'Default tax rate %', { inputMode: 'decimal', hint: 'Each new line starts with it.' })}
        {field('terms', 'payment_terms_days', 'Payment terms (days)', { inputMode: 'numeric', hint: 'The due date is this many days after the issue date.' })}
      </div>
      <SaveButton saving={save.isPending} label="Save business details" />
    </form>
  );
}
