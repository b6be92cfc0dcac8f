import { customerDetailsInputSchema, limits, type CustomerDetails } from '@otto/api-contract';
import { Button, Notice, TextAreaField, TextField, useToast } from '@otto/ui';
import { useId, useRef, useState, type FormEvent } from 'react';
import { FormFailure, SaveButton } from '../../../lib/form-parts';
import { ChangedElsewhereNotice } from '../../../lib/live/changed-elsewhere-notice';
import { useEditConflict } from '../../../lib/live/use-edit-conflict';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useCustomerDetails, useSaveCustomerDetails } from '../api/customer-details';

/** One service address as typed, with a key that stays with it while others are added or removed. */
export interface AddressValues {
  key: string;
  label: string;
  address: string;
}

export interface CustomerDetailsValues {
  notes: string;
  addresses: AddressValues[];
}

/** What is sent: the notes and addresses after trimming. */
interface DetailsInput {
  notes: string;
  addresses: { label: string; address: string }[];
}

let addressCount = 0;
const addressKey = () => `address-${++addressCount}`;

/** The form's values for notes and addresses as saved. */
export function customerDetailsValues(details: Pick<CustomerDetails, 'notes' | 'addresses'>): CustomerDetailsValues {
  return { notes: details.notes, addresses: details.addresses.map((a) => ({ key: addressKey(), label: a.label, address: a.address })) };
}

/** The contract's rules on what was typed: the body to send, or each field's message keyed as the server names it (`addresses.1.address`). */
export function validateCustomerDetails(values: CustomerDetailsValues): { input?: DetailsInput; errors: Record<string, string> } {
  const result = customerDetailsInputSchema.safeParse({
    notes: values.notes,
    addresses: values.addresses.map(({ label, address }) => ({ label, address })),
  });
  if (result.success) return { input: result.data, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return { errors };
}

/** How an address reads in a list or a choice: "Rental — 7 Mill Lane", or the address alone. */
export function addressText(address: { label: string; address: string }): string {
  return address.label ? `${address.label} — ${address.address}` : address.address;
}

export interface CustomerDetailsCardProps {
  customerId: string;
  customerName: string;
  /** An archived customer's notes and addresses are shown, not edited (the server refuses with 409). */
  archived: boolean;
  onDirtyChange?: (dirty: boolean) => void;
}

/**
 * The customer's screen › Notes and service addresses (decision 0162): the notes, and the places
 * work is done for them, saved together over the version shown (If-Match).
 */
export function CustomerDetailsCard({ customerId, customerName, archived, onDirtyChange }: CustomerDetailsCardProps) {
  const details = useCustomerDetails(customerId);
  const save = useSaveCustomerDetails();
  const toast = useToast();
  /** The version the user chose to keep editing over: fields they did not touch take its values. */
  const [kept, setKept] = useState<{ id: string; values: CustomerDetailsValues }>();
  const conflict = useEditConflict({
    id: customerId,
    current: details.data?.modified_dt ?? 0,
    // 0 until first saved: loaded is what says the form was built.
    ready: details.isSuccess,
    saved: save.data?.customer_id === customerId ? save.data.modified_dt : undefined,
    saving: save.isPending,
  });

  return (
    <section id="customer-details" aria-labelledby="customer-details-title" className="otto-card customer-details">
      <h2 id="customer-details-title" className="otto-card__title">
        Notes and service addresses
      </h2>
      {details.isPending ? (
        <p role="status">Loading notes and addresses…</p>
      ) : details.isError ? (
        <Notice
          tone="error"
          title="The notes and addresses could not be loaded"
          action={
            <Button size="sm" onClick={() => void details.refetch()}>
              Try again
            </Button>
          }
        >
          {details.error.message}
        </Notice>
      ) : archived ? (
        <ArchivedDetails details={details.data} customerName={customerName} />
      ) : (
        <>
          {conflict.changed && (
            <ChangedElsewhereNotice
              what="customer"
              onLoad={() => {
                conflict.loadNewVersion();
                setKept(undefined);
                onDirtyChange?.(false);
              }}
              onKeepEditing={() => {
                conflict.keepEditing();
                setKept({ id: customerId, values: customerDetailsValues(details.data) });
              }}
            />
          )}
          <CustomerDetailsForm
            key={conflict.formKey}
            initial={customerDetailsValues(details.data)}
            incoming={kept?.id === customerId ? kept.values : undefined}
            saving={save.isPending}
            onDirtyChange={onDirtyChange}
            onSubmit={async (input) => {
              await save.mutateAsync({ id: customerId, input, version: conflict.expected });
              toast.show(`Notes and addresses of ${customerName} were saved.`, { tone: 'success' });
            }}
          />
        </>
      )}
    </section>
  );
}

/** An archived customer's notes and addresses, to read. */
function ArchivedDetails({ details, customerName }: { details: CustomerDetails; customerName: string }) {
  return (
    <div className="otto-stack">
      <p className="otto-muted">{customerName} is archived: restore them to change their notes or service addresses.</p>
      <div>
        <h3 className="customer-details__subtitle">Notes</h3>
        {details.notes ? <p className="customer-details__notes">{details.notes}</p> : <p className="otto-muted">No notes.</p>}
      </div>
      <div>
        <h3 className="customer-details__subtitle">Service addresses</h3>
        {details.addresses.length > 0 ? (
          <ul className="customer-details__addresses">
            {details.addresses.map((a, i) => (
              <li key={i}>{addressText(a)}</li>
            ))}
          </ul>
        ) : (
          <p className="otto-muted">No service addresses.</p>
        )}
      </div>
    </div>
  );
}

interface CustomerDetailsFormProps {
  initial: CustomerDetailsValues;
  incoming: CustomerDetailsValues | undefined;
  saving: boolean;
  onSubmit: (input: DetailsInput) => Promise<unknown>;
  onDirtyChange: ((dirty: boolean) => void) | undefined;
}

function CustomerDetailsForm({ initial, incoming, saving, onSubmit, onDirtyChange }: CustomerDetailsFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const form = useValidatedForm<CustomerDetailsValues, DetailsInput>({
    initial,
    validate: validateCustomerDetails,
    onSubmit,
    onDirtyChange,
    // Shown as saved: trimmed, each address keeping its place (and key).
    savedValues: (input, values) => ({
      notes: input.notes,
      addresses: input.addresses.map((a, i) => ({ key: values.addresses[i]?.key ?? addressKey(), label: a.label, address: a.address })),
    }),
    fallbackFailure: 'The notes and addresses could not be saved. Try again.',
    incoming,
  });
  const { values, errors, failure, change } = form;
  const submit = (event: FormEvent<HTMLFormElement>) => form.submit(event, saving);
  const focusField = (name: string) => requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[data-field="${name}"]`)?.focus());

  const setAddress = (index: number, patch: Partial<AddressValues>) =>
    change(
      'addresses',
      values.addresses.map((a, i) => (i === index ? { ...a, ...patch } : a)),
    );
  const addAddress = () => {
    change('addresses', [...values.addresses, { key: addressKey(), label: '', address: '' }]);
    focusField(`addresses.${values.addresses.length}.label`);
  };
  const removeAddress = (index: number) => {
    change(
      'addresses',
      values.addresses.filter((_, i) => i !== index),
    );
    // Focus stays in the addresses: on the next one's label, or Add an address.
    requestAnimationFrame(() => {
      const next =
        formRef.current?.querySelector<HTMLElement>(`[data-field="addresses.${index}.label"]`) ??
        formRef.current?.querySelector<HTMLElement>(`[data-field="addresses.${index - 1}.label"]`) ??
        formRef.current?.querySelector<HTMLElement>('[data-field="addresses"]');
      next?.focus();
    });
  };
  const full = values.addresses.length >= limits.maxServiceAddresses;

  return (
    <form ref={formRef} className="otto-stack customer-details-form" noValidate onSubmit={submit} aria-busy={saving}>
      <FormFailure message={failure} />
      <TextAreaField
        label="Notes"
        name="notes"
        data-field="notes"
        rows={4}
        hint="Gate codes, pets, parking, when to call: shown at the top of this page."
        value={values.notes}
        error={errors.notes}
        onChange={(e) => change('notes', e.target.value)}
      />
      <fieldset className="customer-addresses">
        <legend>Service addresses</legend>
        <p className="otto-muted">Where you work for them. A job for them can take one as its address.</p>
        {errors.addresses && (
          <p className="customer-addresses__error" role="alert">
            {errors.addresses}
          </p>
        )}
        {values.addresses.length > 0 && (
          <ol className="customer-addresses__list">
            {values.addresses.map((address, i) => (
              <AddressEditor key={address.key} index={i} address={address} errors={errors} onChange={(patch) => setAddress(i, patch)} onRemove={() => removeAddress(i)} />
            ))}
          </ol>
        )}
        <div>
          {full ? (
            <p className="otto-muted">A customer has at most {limits.maxServiceAddresses} service addresses.</p>
          ) : (
            <Button type="button" size="sm" variant="secondary" data-field="addresses" onClick={addAddress}>
              Add an address
            </Button>
          )}
        </div>
      </fieldset>
      <SaveButton saving={saving} label="Save notes and addresses" />
    </form>
  );
}

function AddressEditor({
  index,
  address,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  address: AddressValues;
  errors: Record<string, string>;
  onChange: (patch: Partial<AddressValues>) => void;
  onRemove: () => void;
}) {
  const headingId = useId();
  return (
    <li className="customer-address" aria-labelledby={headingId}>
      <div className="customer-address__head">
        <h3 id={headingId} className="customer-address__title">
          Address {index + 1}
        </h3>
        <Button type="button" size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove address ${index + 1}`}>
          Remove
        </Button>
      </div>
      <div className="customer-address__fields">
        <TextField
          label="Label"
          data-field={`addresses.${index}.label`}
          placeholder="Home, Rental, Shop"
          value={address.label}
          error={errors[`addresses.${index}.label`]}
          onChange={(e) => onChange({ label: e.target.value })}
        />
        <TextField
          label="Address"
          required
          data-field={`addresses.${index}.address`}
          className="customer-address__address"
          autoComplete="street-address"
          value={address.address}
          error={errors[`addresses.${index}.address`]}
          onChange={(e) => onChange({ address: e.target.value })}
        />
      </div>
    </li>
  );
}

/** The customer's notes at a glance, near the top of their screen (nothing when there are none). */
export function CustomerNotesGlance({ customerId }: { customerId: string }) {
  const details = useCustomerDetails(customerId);
  const notes = details.data?.notes ?? '';
  if (!notes) return null;
  return (
    <section aria-labelledby="customer-notes-glance-title" className="customer-notes-glance">
      <h2 id="customer-notes-glance-title" className="customer-notes-glance__title">
        Notes
      </h2>
      <p className="customer-notes-glance__text">{notes}</p>
      <a className="customer-notes-glance__more" href="#customer-details">
        All notes and service addresses
      </a>
    </section>
  );
}
