import { customerInputSchema, type CustomerInput } from '@otto/api-contract';
import { TextField } from '@otto/ui';
import type { FormEvent } from 'react';
import { FormFailure, SaveButton } from '../../../lib/form-parts';
import { useFocusFirstField } from '../../../lib/use-focus-first-field';
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

const fields: { name: Field; label: string; type: string; autoComplete: string; required: boolean; hint?: string }[] = [
  { name: 'full_name', label: 'Full name', type: 'text', autoComplete: 'name', required: true },
  // A customer reached by phone only is saved with no email (decision 0162).
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', required: false, hint: 'Leave it empty for a customer you reach by phone only.' },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', required: true },
];

export interface CustomerFormProps {
  initial?: CustomerInput;
  submitLabel: string;
  saving: boolean;
  /** Saves; a rejected ApiClientError with field issues is shown next to the fields. */
  onSubmit: (input: CustomerInput) => Promise<unknown>;
  onDirtyChange?: (dirty: boolean) => void;
  /** Put the cursor in the first field when the form appears (a new customer). */
  focusFirst?: boolean;
  /** The customer as saved elsewhere, after "Keep editing": fields not changed here take its values. */
  incoming?: CustomerInput | undefined;
}

/** The customer fields with their rules checked before anything is sent. */
export function CustomerForm({ initial = empty, submitLabel, saving, onSubmit, onDirtyChange, focusFirst = false, incoming }: CustomerFormProps) {
  const formRef = useFocusFirstField<HTMLFormElement>(focusFirst);
  const form = useValidatedForm<CustomerInput, CustomerInput>({
    initial,
    validate,
    onSubmit,
    onDirtyChange,
    savedValues: (input) => input,
    fallbackFailure: 'The customer could not be saved. Try again.',
    incoming,
  });
  const { values, failure, change } = form;
  const errors = form.errors as Errors;

  const submit = (event: FormEvent<HTMLFormElement>) => form.submit(event, saving);

  return (
    <form ref={formRef} className="otto-stack customer-form" noValidate onSubmit={submit} aria-busy={saving}>
      <FormFailure message={failure} />
      {fields.map(({ name, label, type, autoComplete, required, hint }) => (
        <TextField
          key={name}
          id={`customer-${name}`}
          data-field={name}
          label={label}
          name={name}
          type={type}
          autoComplete={autoComplete}
          required={required}
          {...(hint ? { hint } : {})}
          value={values[name]}
          error={errors[name]}
          onChange={(e) => change(name, e.target.value)}
        />
      ))}
      <SaveButton saving={saving} label={submitLabel} />
    </form>
  );
}
