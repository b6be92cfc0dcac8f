import { PageHeader, SelectField, useToast } from '@otto/ui';
import { useMemo } from 'react';
import { BusinessDetails } from '../../../features/invoices/components/business-details-form';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { currencyForLocale, saveSettings, useSettings } from '../../../lib/settings';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Every currency Intl knows, named in the user's language: "Euro (EUR)". */
function currencyOptions(selected: string) {
  const names = new Intl.DisplayNames(undefined, { type: 'currency' });
  const codes = new Set(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : []);
  codes.add(selected);
  return [...codes]
    .map((code) => ({ value: code, label: `${names.of(code) ?? code} (${code})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Settings kept in this browser: the business's currency (prices), with a preview in the user's locale. */
export default function SettingsScreen() {
  useDocumentTitle('Settings');
  const settings = useSettings();
  const toast = useToast();
  const options = useMemo(() => currencyOptions(settings.currency), [settings.currency]);
  const guessed = currencyForLocale(navigator.language);

  return (
    <div className="otto-stack otto-stack--lg">
      <PageHeader title="Settings" description="Your business's details, kept with your data, and how this browser shows prices and times." />
      <BusinessDetails />
      <section aria-labelledby="money-title" className="otto-card settings-card">
        <h2 id="money-title" className="otto-card__title">
          Prices and times
        </h2>
        <p className="otto-muted">Kept in this browser only; other browsers and devices have their own.</p>
        <SelectField
          label="Currency"
          name="currency"
          hint={`Prices in Otto are shown in this currency. Your browser's language (${navigator.language}) suggests ${guessed}.`}
          value={settings.currency}
          options={options}
          onChange={(event) => {
            saveSettings({ ...settings, currency: event.target.value });
            toast.show(`Prices are now shown in ${event.target.value}.`, { tone: 'success', kind: 'settings' });
          }}
        />
        <p className="otto-muted" aria-live="polite">
          A price looks like <strong>{formatMoney(125050, settings.currency)}</strong>, a time like{' '}
          <strong>{formatDateTime(Date.UTC(2026, 11, 1, 8, 30))}</strong> (your browser's language and time zone).
        </p>
      </section>
    </div>
  );
}
