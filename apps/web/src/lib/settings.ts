import { useSyncExternalStore } from 'react';

/** What a person sets once for this browser (Settings screen), kept in localStorage. */
export interface Settings {
  /** ISO 4217 code of the business's currency, e.g. "EUR". */
  currency: string;
}

const storageKey = 'otto.settings';

// The currency of a locale's region, for the first guess (Intl has no API for it). Regions not
// listed fall back to USD; the Settings screen says so and lets the person choose.
const euro = ['AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK'];
const regionCurrency: Record<string, string> = {
  ...Object.fromEntries(euro.map((r) => [r, 'EUR'])),
  US: 'USD', GB: 'GBP', CA: 'CAD', AU: 'AUD', NZ: 'NZD', IE: 'EUR', CH: 'CHF', LI: 'CHF', SE: 'SEK', NO: 'NOK', DK: 'DKK',
  PL: 'PLN', CZ: 'CZK', HU: 'HUF', RO: 'RON', BG: 'BGN', IS: 'ISK', JP: 'JPY', CN: 'CNY', HK: 'HKD', SG: 'SGD', IN: 'INR',
  ZA: 'ZAR', BR: 'BRL', MX: 'MXN', AR: 'ARS', CL: 'CLP', CO: 'COP', KR: 'KRW', TR: 'TRY', IL: 'ILS', AE: 'AED', SA: 'SAR',
  UA: 'UAH', PH: 'PHP', TH: 'THB', MY: 'MYR', ID: 'IDR', VN: 'VND', NG: 'NGN', KE: 'KES', EG: 'EGP', TW: 'TWD', PK: 'PKR',
};

/** The currency of the browser's locale ("de-AT" → EUR, "en-GB" → GBP); USD when the region is not known. */
export function currencyForLocale(locale: string): string {
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).maximize().region;
  } catch {
    region = undefined;
  }
  return (region && regionCurrency[region]) ?? 'USD';
}

/** True for a currency code Intl can format. */
export function isCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat(undefined, { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}

function browserLocale(): string {
  return typeof navigator === 'undefined' ? 'en-US' : (navigator.language ?? 'en-US');
}

function load(): Settings {
  const fallback: Settings = { currency: currencyForLocale(browserLocale()) };
  try {
    const raw = localStorage.getItem(storageKey);
    const stored = raw ? (JSON.parse(raw) as Partial<Settings>) : {};
    return { currency: typeof stored.currency === 'string' && isCurrency(stored.currency) ? stored.currency : fallback.currency };
  } catch {
    return fallback;
  }
}

let current: Settings | undefined;
const listeners = new Set<() => void>();

/** The settings now (read once from localStorage, then kept in memory). */
export function getSettings(): Settings {
  current ??= load();
  return current;
}

/** Saves settings in this browser; every screen (and other tabs, on their next render) uses them. */
export function saveSettings(next: Settings): void {
  current = next;
  try {
    localStorage.setItem(storageKey, JSON.stringify(next));
  } catch {
    // Kept for this tab only when storage is refused.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key !== storageKey) return;
    current = load();
    listener();
  };
  window.addEventListener('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', fromOtherTab);
  };
}

/** The settings, re-rendering when they change (here or in another tab). */
export function useSettings(): Settings {
  return useSyncExternalStore(subscribe, getSettings, getSettings);
}
