import { customerInputSchema, type CustomerInput } from '@otto/api-contract';
import { Button, Notice, TextField } from '@otto/ui';
import { useState, type FormEvent } from 'react';
import { ApiClientError } from '../../../lib/api-client';

type Field = keyof CustomerInput;
type Errors = Partial<Record<Field, string>>;

const empty: CustomerInput = { full_name: '', email: '', phone: '' };

function validate(values: CustomerInput): { input?: CustomerInput; errors: Errors } {
  const result = customerInputSchema.safeParse(values);
  if (result.success) return { input: result.data, errors: {} };
  const errors: Errors = {};
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
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string>();

  const isDirty = (next: CustomerInput, base: CustomerInput) =>
    (Object.keys(base) as Field[]).some((key) => next[key] !== base[key]);

  function change(field: Field, value: string) {
    const next = { ...values, [field]: value };
    setValues(next);
    onDirtyChange?.(isDirty(next, saved));
    if (submitted) setErrors(validate(next).errors);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSubmitted(true);
    setFailure(undefined);
    const { input, errors: found } = validate(values);
    setErrors(found);
    if (!input) {
      const first = Object.keys(found)[0];
      if (first) document.getElementById(`customer-${first}`)?.focus();
      return;
    }
    try {
      await onSubmit(input);
      setValues(input);
      setSaved(input);
      onDirtyChange?.(false);
    } catch (error) {
      if (error instanceof ApiClientError) {
        const issues = error.fieldIssues();
        if (Object.keys(issues).length > 0) setErrors(issues);
        setFailure(error.message);
      } else {
        setFailure('The customer could not be saved. Try again.');
      }
    }
  }

  return (
    <form className="otto-stack customer-form" noValidate onSubmit={submit} aria-busy={saving}>
      {failure && (
        <Notice tone="error" title="Not saved">
          {failure}
        </Notice>
      )}
      <TextField
        id="customer-full_name"
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
