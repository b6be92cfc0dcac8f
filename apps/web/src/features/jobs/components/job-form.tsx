import { jobInputSchema, jobStatusLabels, jobTransitions, type Job, type JobFields, type JobStatus } from '@otto/api-contract';
import { Button, SelectField, TextAreaField, TextField } from '@otto/ui';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormFailure, SaveButton } from '../../../lib/form-parts';
import { useFocusFirstField } from '../../../lib/use-focus-first-field';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { fromDateTimeLocal, moneyInput, parseMoney, toDateTimeLocal } from '../../../lib/format';
import { useCustomerDetails } from '../../customers/api/customer-details';
import { CustomerPicker, type PickedCustomer } from './customer-picker';
import { ServiceAddressChoices } from './service-address-choices';

interface Values {
  customer: PickedCustomer | null;
  title: string;
  description: string;
  service_address: string;
  status: JobStatus;
  assignee: string;
  start: string;
  end: string;
  price: string;
}
type Errors = Partial<Record<keyof JobFields, string>>;

/**
 * The form's values for `job`, or for a new job (for `customer` when given, at `serviceAddress`:
 * the customer's one service address, when they have exactly one).
 */
export function jobFormValues(job?: Job, customer?: PickedCustomer | null, serviceAddress = ''): Values {
  return {
    customer: job ? { id: job.customer_id, name: job.customer_name } : (customer ?? null),
    title: job?.title ?? '',
    description: job?.description ?? '',
    service_address: job?.service_address ?? serviceAddress,
    status: job?.status ?? 'quote',
    assignee: job?.assignee ?? '',
    start: toDateTimeLocal(job?.scheduled_start_dt ?? null),
    end: toDateTimeLocal(job?.scheduled_end_dt ?? null),
    price: job ? moneyInput(job.price_cents) : '',
  };
}

function validate(values: Values): { input?: JobFields; errors: Record<string, string> } {
  const errors: Errors & Record<string, string> = {};
  const price = parseMoney(values.price);
  if (price === null) errors.price_cents = 'Enter a price like 125.50.';
  const result = jobInputSchema.safeParse({
    customer_id: values.customer?.id ?? '',
    title: values.title,
    description: values.description,
    service_address: values.service_address,
    status: values.status,
    assignee: values.assignee,
    scheduled_start_dt: fromDateTimeLocal(values.start),
    scheduled_end_dt: fromDateTimeLocal(values.end),
    price_cents: price ?? 0,
  });
  for (const issue of result.success ? [] : result.error.issues) errors[issue.path[0] as keyof JobFields] ??= issue.message;
  if (values.status === 'scheduled' && values.start === '') errors.scheduled_start_dt ??= 'A scheduled job needs a start time.';
  return Object.keys(errors).length === 0 && result.success ? { input: result.data, errors } : { errors };
}

export interface JobFormProps {
  initial: Values;
  /** The job's saved status: only it and its allowed next statuses are offered. Absent for a new job. */
  savedStatus?: JobStatus;
  submitLabel: string;
  saving: boolean;
  onSubmit: (fields: JobFields) => Promise<unknown>;
  onDirtyChange?: (dirty: boolean) => void;
  /** Put the cursor in the first field when the form appears (a new job). */
  focusFirst?: boolean;
  /** The job as saved elsewhere, after "Keep editing": fields not changed here take its values. */
  incoming?: Values | undefined;
}

/** Every field of a job, checked with the contract's rules before anything is sent. */
export function JobForm({ initial, savedStatus, submitLabel, saving, onSubmit, onDirtyChange, focusFirst = false, incoming }: JobFormProps) {
  const formRef = useFocusFirstField<HTMLFormElement>(focusFirst);
  const form = useValidatedForm<Values, JobFields>({
    initial,
    validate,
    onSubmit,
    onDirtyChange,
    fallbackFailure: 'The job could not be saved. Try again.',
    incoming,
  });
  const { values, failure, change } = form;
  const errors = form.errors as Errors;
  // An empty scheduled end is one button, not the browser's seven date and time segments to Tab
  // through: most jobs have a start only. Asked for, the field appears with the cursor in it.
  const [endAsked, setEndAsked] = useState(false);
  const endShown = endAsked || values.end !== '' || errors.scheduled_end_dt !== undefined;
  useEffect(() => {
    if (endAsked) formRef.current?.querySelector<HTMLElement>('[data-field="scheduled_end_dt"]')?.focus();
  }, [endAsked, formRef]);
  // The customer's service addresses are offered for the job's address. A new job for a customer
  // with exactly one takes it while the field is empty, once per customer chosen (the form's
  // first customer had it in `initial` already).
  const customerId = values.customer?.id ?? '';
  const addresses = useCustomerDetails(customerId).data?.addresses;
  const prefilledFor = useRef(initial.customer?.id ?? '');
  useEffect(() => {
    if (savedStatus || customerId === '' || prefilledFor.current === customerId || addresses === undefined) return;
    prefilledFor.current = customerId;
    const [only] = addresses;
    if (addresses.length === 1 && only && values.service_address.trim() === '') change('service_address', only.address);
    // Once the chosen customer's addresses are known; `change` reads this render's values.
  }, [customerId, addresses]);
  const statuses: JobStatus[] = savedStatus ? [savedStatus, ...jobTransitions[savedStatus]] : ['quote', 'scheduled'];
  const submit = (event: FormEvent<HTMLFormElement>) => form.submit(event, saving);

  const field = (name: keyof Values & keyof Errors, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      name={name}
      data-field={name}
      value={values[name] as string}
      error={errors[name]}
      onChange={(e) => change(name, e.target.value)}
      {...extra}
    />
  );

  return (
    <form ref={formRef} className="otto-stack job-form" noValidate onSubmit={submit} aria-busy={saving}>
      <FormFailure message={failure} />
      <CustomerPicker value={values.customer} onChange={(c) => change('customer', c)} error={errors.customer_id} />
      <div className="otto-form-grid">
        {field('title', 'Title', { required: true, className: 'otto-form-grid__full' })}
        <SelectField
          label="Status"
          name="status"
          data-field="status"
          value={values.status}
          error={errors.status}
          options={statuses.map((s) => ({ value: s, label: jobStatusLabels[s] }))}
          onChange={(e) => change('status', e.target.value as JobStatus)}
        />
        {field('assignee', 'Assigned to', { hint: 'Leave empty when nobody is assigned yet.' })}
        <TextField label="Scheduled start" data-field="scheduled_start_dt" type="datetime-local" value={values.start} error={errors.scheduled_start_dt} onChange={(e) => change('start', e.target.value)} />
        {endShown ? (
          <TextField label="Scheduled end" data-field="scheduled_end_dt" type="datetime-local" value={values.end} error={errors.scheduled_end_dt} onChange={(e) => change('end', e.target.value)} />
        ) : (
          <div className="job-form__end">
            <Button type="button" size="sm" variant="secondary" onClick={() => setEndAsked(true)}>
              Add a scheduled end
            </Button>
          </div>
        )}
        <TextField label="Price" data-field="price_cents" inputMode="decimal" value={values.price} error={errors.price_cents} placeholder="0.00" onChange={(e) => change('price', e.target.value)} />
        {field('service_address', 'Service address', { className: 'otto-form-grid__full', autoComplete: 'street-address' })}
        {customerId !== '' && addresses && (
          <ServiceAddressChoices addresses={addresses} value={values.service_address} onChoose={(address) => change('service_address', address)} />
        )}
        <TextAreaField
          label="Description"
          data-field="description"
          className="otto-form-grid__full"
          rows={4}
          value={values.description}
          error={errors.description}
          onChange={(e) => change('description', e.target.value)}
        />
      </div>
      <SaveButton saving={saving} label={submitLabel} />
    </form>
  );
}
