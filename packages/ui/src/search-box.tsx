import { useId } from 'react';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from './cx';
import { Spinner } from './spinner';

/** Props of {@link SearchBox}: `<input>` props (including `ref`) except type, value and onChange. */
export interface SearchBoxProps
  extends Omit<ComponentPropsWithRef<'input'>, 'type' | 'value' | 'defaultValue' | 'onChange'> {
  /** Visible label, bound to the input. */
  label: ReactNode;
  value: string;
  /** Called with the new text on every edit (including the browser's clear button and Escape). */
  onChange: (value: string) => void;
  /** Shows a spinner inside the box while results load. */
  busy?: boolean;
  /** Announced with the spinner. @default 'Searching' */
  busyLabel?: string;
  /** Class of the outer wrapper. */
  className?: string;
}

/**
 * A labelled `type="search"` input, controlled by a plain string.
 *
 * @example
 * <SearchBox label="Search customers" value={q} onChange={setQ} busy={query.isFetching} />
 */
export function SearchBox({
  label,
  value,
  onChange,
  busy = false,
  busyLabel = 'Searching',
  id,
  className,
  ...rest
}: SearchBoxProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className={cx('otto-field', 'otto-search', className)}>
      <label className="otto-field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className="otto-search__control">
        <svg className="otto-search__icon" viewBox="0 0 16 16" fill="none" aria-hidden="true">
          <circle cx="7" cy="7" r="4.75" stroke="currentColor" strokeWidth="1.5" />
          <path d="m10.5 10.5 3 3" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
        <input
          id={inputId}
          type="search"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className="otto-input otto-search__input"
          {...rest}
          onKeyDown={(event) => {
            rest.onKeyDown?.(event);
            // Escape clears the search in every browser (Chromium does it natively, Firefox does not).
            if (event.key === 'Escape' && !event.defaultPrevented && value !== '') {
              event.preventDefault();
              onChange('');
            }
          }}
        />
        {busy && (
          <span className="otto-search__busy">
            <Spinner size="sm" label={busyLabel} />
          </span>
        )}
      </div>
    </div>
  );
}
