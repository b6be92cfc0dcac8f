import { SelectField } from '@otto/ui';
import type { CustomerDetails } from '@otto/api-contract';
import { addressText } from '../../customers/components/customer-details-card';

export interface ServiceAddressChoicesProps {
  addresses: CustomerDetails['addresses'];
  /** The job's service address as typed: the choice that matches it is shown as chosen. */
  value: string;
  onChoose: (address: string) => void;
}

/**
 * The customer's service addresses as quick choices for a job's address (decision 0162): choosing
 * one fills the field, which stays free text. Nothing when the customer has none.
 */
export function ServiceAddressChoices({ addresses, value, onChoose }: ServiceAddressChoicesProps) {
  if (addresses.length === 0) return null;
  const chosen = addresses.findIndex((a) => a.address === value.trim());
  return (
    <SelectField
      label="Use one of their addresses"
      className="otto-form-grid__full"
      value={chosen === -1 ? '' : String(chosen)}
      hint={addresses.length === 1 ? 'The one address saved for this customer.' : `${addresses.length} addresses saved for this customer.`}
      options={[
        { value: '', label: chosen === -1 && value.trim() !== '' ? 'Another address (typed above)' : 'Choose an address…' },
        ...addresses.map((a, i) => ({ value: String(i), label: addressText(a) })),
      ]}
      onChange={(e) => {
        const address = addresses[Number(e.target.value)];
        if (e.target.value !== '' && address) onChoose(address.address);
      }}
    />
  );
}
