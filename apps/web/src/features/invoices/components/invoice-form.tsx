import { invoiceInputSchema, invoiceTotals, priceLine, type InvoiceInput, type InvoiceLine, type Job } from '@otto/api-contract';
import { Button, TextAreaField, TextField } from '@otto/ui';
import { useId, type FormEvent } from 'react';
import { Link } from 'react-router';
import { FormFailure, SaveButton } from '../../../lib/form-parts';
import { formatMoney, moneyInput, parseMoney } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useSettings } from '../../../lib/settings';
import { useFocusFirstField } from '../../../lib/use-focus-first-field';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useJobs } from '../../jobs/api/get-jobs';
import { CustomerPicker, type PickedCustomer } from '../../jobs/components/customer-picker';
import { daysAfter, parsePercent, parseQuantity, percentText } from '../invoice-words';

/** One line as typed: text fields, and the job it came from (unticking the job removes it). */
export interface LineValues {
  key: string;
  jobId?: string;
  description: string;
  quantity: string;
  unitPrice: string;
  tax: string;
  discount: string;
}

export interface InvoiceFormValues {
  customer: PickedCustomer | null;
  jobIds: string[];
  issueDate: string;
  dueDate: string;
  lines: LineValues[];
  note: string;
}

let lineCount = 0;
const lineKey = () => `line-${++lineCount}`;

/** An empty line with the business's default tax rate. */
export function blankLine(taxBp: number): LineValues {
  return { key: lineKey(), description: '', quantity: '1', unitPrice: '', tax: percentText(taxBp), discount: '0' };
}

/** A job's line: its title, 1 × its price, the default tax rate. */
export function jobLine(job: Pick<Job, 'id' | 'title' | 'price_cents'>, taxBp: number): LineValues {
  return { key: lineKey(), jobId: job.id, description: job.title, quantity: '1', unitPrice: moneyInput(job.price_cents), tax: percentText(taxBp), discount: '0' };
}

/** The form's values for lines as saved (editing an invoice). */
export function savedLines(lines: readonly InvoiceLine[]): LineValues[] {
  return lines.map((l) => ({
    key: lineKey(),
    description: l.description,
    quantity: String(l.quantity),
    unitPrice: moneyInput(l.unit_price_cents),
    tax: percentText(l.tax_rate_bp),
    discount: percentText(l.discount_bp),
  }));
}

/** A line's numbers, or the message of each field that is not a number. */
function parseLine(line: LineValues, index: number) {
  const errors: Record<string, string> = {};
  const quantity = parseQuantity(line.quantity);
  const unit = parseMoney(line.unitPrice);
  const tax = parsePercent(line.tax);
  const discount = parsePercent(line.discount);
  if (quantity === null) errors[`lines.${index}.quantity`] = 'Enter a quantity like 1 or 1.5.';
  if (unit === null) errors[`lines.${index}.unit_price_cents`] = 'Enter a price like 125.50.';
  if (tax === null) errors[`lines.${index}.tax_rate_bp`] = 'Enter a percentage like 20 or 12.5.';
  if (discount === null) errors[`lines.${index}.discount_bp`] = 'Enter a percentage like 10, or 0.';
  return {
    errors,
    input: { description: line.description, quantity: quantity ?? 0, unit_price_cents: unit ?? 0, tax_rate_bp: tax ?? 0, discount_bp: discount ?? 0 },
  };
}

/** The contract's rules on what was typed: the invoice to send, or each field's message keyed as the server names it (`lines.0.quantity`). */
export function validateInvoice(values: InvoiceFormValues): { input?: InvoiceInput; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const lines = values.lines.map((line, i) => {
    const parsed = parseLine(line, i);
    Object.assign(errors, parsed.errors);
    return parsed.input;
  });
  const result = invoiceInputSchema.safeParse({
    customer_id: values.customer?.id ?? '',
    job_ids: values.jobIds,
    issue_date: values.issueDate,
    due_date: values.dueDate,
    lines,
    note: values.note,
  });
  for (const issue of result.success ? [] : result.error.issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return Object.keys(errors).length === 0 && result.success ? { input: result.data, errors } : { errors };
}

/**
 * Each line priced by the contract's one rounding rule (`priceLine`) while it is typed, null for a
 * line that is not all numbers yet, and the invoice's totals over the lines that are.
 */
export function liveTotals(lines: readonly LineValues[]) {
  const priced = lines.map((line, i) => {
    const { errors, input } = parseLine(line, i);
    if (Object.keys(errors).length > 0 || input.quantity <= 0) return null;
    return priceLine(input);
  });
  return { priced, totals: invoiceTotals(priced.filter((l): l is InvoiceLine => l !== null)) };
}

export interface InvoiceFormProps {
  initial: InvoiceFormValues;
  /** A new invoice picks its customer and jobs; an invoice being changed keeps them. */
  mode: 'new' | 'edit';
  /** Jobs already known (from `?jobs=`), shown as choices even before the customer's list has loaded. */
  knownJobs?: readonly Job[];
  defaultTaxBp: number;
  termsDays: number;
  submitLabel: string;
  saving: boolean;
  onSubmit: (input: InvoiceInput) => Promise<unknown>;
  onDirtyChange?: (dirty: boolean) => void;
  focusFirst?: boolean;
}

/** Customer, jobs billed, dates, lines and note, with the totals worked out as they are typed. */
export function InvoiceForm({ initial, mode, knownJobs = [], defaultTaxBp, termsDays, submitLabel, saving, onSubmit, onDirtyChange, focusFirst = false }: InvoiceFormProps) {
  const formRef = useFocusFirstField<HTMLFormElement>(focusFirst);
  const form = useValidatedForm<InvoiceFormValues, InvoiceInput>({
    initial,
    validate: validateInvoice,
    onSubmit,
    onDirtyChange,
    fallbackFailure: 'The invoice could not be saved. Try again.',
  });
  const { values, errors, failure, change, changeMany } = form;
  const { currency } = useSettings();
  const { priced, totals } = liveTotals(values.lines);
  const submit = (event: FormEvent<HTMLFormElement>) => form.submit(event, saving);

  const setLine = (index: number, patch: Partial<LineValues>) => change('lines', values.lines.map((l, i) => (i === index ? { ...l, ...patch } : l)));
  const removeLine = (index: number) => {
    change('lines', values.lines.filter((_, i) => i !== index));
    // Focus stays in the lines: on the next line's description, or Add a line.
    requestAnimationFrame(() => {
      const next = formRef.current?.querySelector<HTMLElement>(`[data-field="lines.${index}.description"]`) ?? formRef.current?.querySelector<HTMLElement>('[data-field="lines"]');
      next?.focus();
    });
  };
  const addLine = () => {
    const index = values.lines.length;
    change('lines', [...values.lines, blankLine(defaultTaxBp)]);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[data-field="lines.${index}.description"]`)?.focus());
  };
  const toggleJob = (job: Job, on: boolean) => {
    if (on) {
      // A lone empty line gives way to the job's.
      const kept = values.lines.filter((l) => !(l.jobId === undefined && l.description === '' && l.unitPrice === '' && values.lines.length === 1));
      changeMany({ jobIds: [...values.jobIds, job.id], lines: [...kept, jobLine(job, defaultTaxBp)] });
    } else {
      const lines = values.lines.filter((l) => l.jobId !== job.id);
      changeMany({ jobIds: values.jobIds.filter((id) => id !== job.id), lines: lines.length ? lines : [blankLine(defaultTaxBp)] });
    }
  };
  const setIssueDate = (issueDate: string) => {
    // A due date that followed the terms keeps following them.
    const followed = values.issueDate && values.dueDate === daysAfter(values.issueDate, termsDays);
    changeMany(followed && /^\d{4}-\d{2}-\d{2}$/.test(issueDate) ? { issueDate, dueDate: daysAfter(issueDate, termsDays) } : { issueDate });
  };
  const jobErrors = Object.entries(errors).filter(([path]) => path.startsWith('job_ids'));

  return (
    <form ref={formRef} className="otto-stack invoice-form" noValidate onSubmit={submit} aria-busy={saving}>
      <FormFailure message={failure} />
      {mode === 'new' ? (
        <CustomerPicker
          value={values.customer}
          onChange={(customer) => {
            if (customer?.id === values.customer?.id) return change('customer', customer);
            // Another customer: the jobs ticked were the other one's.
            const lines = values.lines.filter((l) => l.jobId === undefined);
            changeMany({ customer, jobIds: [], lines: lines.length ? lines : [blankLine(defaultTaxBp)] });
          }}
          error={errors.customer_id}
        />
      ) : (
        <p>
          For <Link to={paths.customers.edit.href(values.customer?.id ?? '')}>{values.customer?.name}</Link>
          {values.jobIds.length > 0 && (
            <>
              {' '}
              · bills{' '}
              {values.jobIds.map((id, i) => (
                <span key={id}>
                  {i > 0 && ', '}
                  <Link to={paths.jobs.edit.href(id)}>job {id}</Link>
                </span>
              ))}
            </>
          )}
        </p>
      )}
      {mode === 'new' && values.customer && (
        <JobChoices customerId={values.customer.id} knownJobs={knownJobs} chosen={values.jobIds} onToggle={toggleJob} errors={jobErrors} />
      )}
      <div className="otto-form-grid">
        <TextField label="Issue date" type="date" data-field="issue_date" value={values.issueDate} error={errors.issue_date} onChange={(e) => setIssueDate(e.target.value)} />
        <TextField
          label="Due date"
          type="date"
          data-field="due_date"
          value={values.dueDate}
          error={errors.due_date}
          hint={`Your terms: ${termsDays} days (Settings).`}
          onChange={(e) => change('dueDate', e.target.value)}
        />
      </div>
      <fieldset className="invoice-lines">
        <legend>Lines</legend>
        {errors.lines && (
          <p className="invoice-lines__error" role="alert">
            {errors.lines}
          </p>
        )}
        <ol className="invoice-lines__list">
          {values.lines.map((line, i) => (
            <LineEditor
              key={line.key}
              index={i}
              line={line}
              errors={errors}
              total={priced[i] ? formatMoney(priced[i].total_cents, currency) : '—'}
              onChange={(patch) => setLine(i, patch)}
              onRemove={values.lines.length > 1 ? () => removeLine(i) : undefined}
            />
          ))}
        </ol>
        <div>
          <Button type="button" size="sm" variant="secondary" data-field="lines" onClick={addLine}>
            Add a line
          </Button>
        </div>
      </fieldset>
      <dl className="invoice-totals" aria-label="Totals">
        <div>
          <dt>Subtotal</dt>
          <dd>{formatMoney(totals.subtotal_cents, currency)}</dd>
        </div>
        <div>
          <dt>Discount</dt>
          <dd>{totals.discount_cents > 0 ? `−${formatMoney(totals.discount_cents, currency)}` : formatMoney(0, currency)}</dd>
        </div>
        <div>
          <dt>Tax</dt>
          <dd>{formatMoney(totals.tax_cents, currency)}</dd>
        </div>
        <div className="invoice-totals__total">
          <dt>Total</dt>
          <dd>{formatMoney(totals.total_cents, currency)}</dd>
        </div>
      </dl>
      <TextAreaField
        label="Note"
        data-field="note"
        rows={3}
        hint="Printed on the invoice: payment details, thanks."
        value={values.note}
        error={errors.note}
        onChange={(e) => change('note', e.target.value)}
      />
      <SaveButton saving={saving} label={submitLabel} />
    </form>
  );
}

function LineEditor({
  index,
  line,
  errors,
  total,
  onChange,
  onRemove,
}: {
  index: number;
  line: LineValues;
  errors: Record<string, string>;
  total: string;
  onChange: (patch: Partial<LineValues>) => void;
  onRemove: (() => void) | undefined;
}) {
  const headingId = useId();
  const field = (name: keyof LineValues, wire: string, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      data-field={`lines.${index}.${wire}`}
      value={line[name] as string}
      error={errors[`lines.${index}.${wire}`]}
      onChange={(e) => onChange({ [name]: e.target.value })}
      {...extra}
    />
  );
  return (
    <li className="invoice-line" aria-labelledby={headingId}>
      <div className="invoice-line__head">
        <h2 id={headingId} className="invoice-line__title">
          Line {index + 1}
        </h2>
        <span className="invoice-line__total" aria-label={`Line ${index + 1} total`}>
          {total}
        </span>
        {onRemove && (
          <Button type="button" size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove line ${index + 1}`}>
            Remove
          </Button>
        )}
      </div>
      <div className="invoice-line__fields">
        {field('description', 'description', 'Description', { className: 'invoice-line__description' })}
        {field('quantity', 'quantity', 'Quantity', { inputMode: 'decimal' })}
        {field('unitPrice', 'unit_price_cents', 'Unit price', { inputMode: 'decimal', placeholder: '0.00' })}
        {field('tax', 'tax_rate_bp', 'Tax %', { inputMode: 'decimal' })}
        {field('discount', 'discount_bp', 'Discount %', { inputMode: 'decimal' })}
      </div>
    </li>
  );
}

/** The customer's completed jobs (and those asked for in the URL), each a checkbox: ticked, it is billed and gets a line. */
function JobChoices({
  customerId,
  knownJobs,
  chosen,
  onToggle,
  errors,
}: {
  customerId: string;
  knownJobs: readonly Job[];
  chosen: readonly string[];
  onToggle: (job: Job, on: boolean) => void;
  errors: [string, string][];
}) {
  const completed = useJobs({ customerId, status: 'completed', limit: 100 });
  const seen = new Set<string>();
  const jobs = [...knownJobs.filter((j) => j.customer_id === customerId), ...(completed.data?.data ?? [])].filter((j) => !seen.has(j.id) && seen.add(j.id));
  const { currency } = useSettings();
  return (
    <fieldset className="invoice-jobs">
      <legend>Jobs billed</legend>
      {completed.isPending && jobs.length === 0 ? (
        <p role="status">Loading their completed jobs…</p>
      ) : completed.isError && jobs.length === 0 ? (
        <p role="alert">Their completed jobs could not be loaded: {completed.error.message}</p>
      ) : jobs.length === 0 ? (
        <p className="otto-muted">They have no completed jobs to invoice. An invoice without a job is fine too (a sale, say).</p>
      ) : (
        <ul className="invoice-jobs__list">
          {jobs.map((job) => {
            const index = chosen.indexOf(job.id);
            return (
              <li key={job.id}>
                <label className="invoice-jobs__choice">
                  <input
                    type="checkbox"
                    data-field={index >= 0 ? `job_ids.${index}` : undefined}
                    checked={index >= 0}
                    onChange={(e) => onToggle(job, e.target.checked)}
                  />
                  <span>
                    {job.title} <span className="otto-muted">({formatMoney(job.price_cents, currency)})</span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {errors.map(([path, message]) => (
        <p key={path} className="invoice-lines__error" role="alert">
          {message}
        </p>
      ))}
    </fieldset>
  );
}
