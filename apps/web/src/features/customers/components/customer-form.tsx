import { customerInputSchema, type CustomerInput } from '@otto/api-contract';
import { Button, Notice, TextField } from '@otto/ui';
import type { FormEvent } from 'react';
import { useValidatedForm } from '../../../lib/use-validated-form';

type Field = keyof CustomerInput;
type Errors = Partial<Record<Field, string>>;

const empty: CustomerInput = { full_name: '', email: '', phone: '' };

function validate(values: CustomerInput): { input?: CustomerInput; errors: Errors & Record<string, string> } {
  const result = customerInputSchema.safeParse(values);
  if (result.success) return { input: result.data, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return { errors };
}

export interface CustomerFormProps {
  initial?: CustomerInput;
  submitLabel: string;
  saving: boolean;
  /** Saves; a rejected ApiClientError with field issues is shown next to the fields. */
  onSubmit: (input: CustomerInput) => Promise<unknown>;
  onDirtyChange?: (dirty: boolean) => void;
}

/** The customer fields with their rules checked before anything is sent. */
export function CustomerForm({ initial = empty, submitLabel, saving, onSubmit, onDirtyChange }: CustomerFormProps) {
  const form = useValidatedForm<CustomerInput, CustomerInput>({
    initial,
    validate,
    onSubmit,
    onDirtyChange,
    savedValues: (input) => input,
    fallbackFailure: 'The customer could not be saved. Try again.',
  });
  const { values, failure, change } = form;
  const errors = form.errors as Errors;

  const submit = (event: FormEvent<HTMLFormElement>) => form.submit(event, saving);

  return (
    <form className="otto-stack customer-form" noValidate onSubmit={submit} aria-busy={saving}>
      {failure && (
        <Notice tone="error" title="Not saved">
          {failure}
        </Notice>
      )}
      <TextField
        id="customer-full_name"
        data-field="full_name"
        label="Full name"
        name="full_name"
        autoComplete="name"
        required
        value={values.full_name}
        error={errors.full_name}
        onChange={(e) => change('full_name', e.target.value)}
      />
      <TextField
        id="customer-email"
        data-field="email"
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={values.email}
        error={errors.email}
        onChange={(e) => change('email', e.target.value)}
      />
      <TextField
        id="customer-phone"
        data-field="phone"
        label="Phone"
        name="phone"
        type="tel"
        autoComplete="tel"
        required
        value={values.phone}
        error={errors.phone}
        onChange={(e) => change('phone', e.target.value)}
      />
      <div className="otto-form-actions">
        <Button type="submit" variant="primary" loading={saving}>
          {saving ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
