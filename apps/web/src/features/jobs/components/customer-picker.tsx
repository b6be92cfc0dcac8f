import { customerRoutes } from '@otto/api-contract';
import { TextField } from '@otto/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { callApi } from '../../../lib/api-client';
import { customerKeys } from '../../../lib/query-keys';
import { useDebouncedValue } from '../../../lib/use-debounced-value';

export interface PickedCustomer {
  id: string;
  name: string;
}

export interface CustomerPickerProps {
  value: PickedCustomer | null;
  onChange: (customer: PickedCustomer | null) => void;
  error?: string | undefined;
}

/** A searchable customer field (ARIA combobox): type part of a name, email or phone, pick one. */
export function CustomerPicker({ value, onChange, error }: CustomerPickerProps) {
  const listId = useId();
  const [text, setText] = useState(value?.name ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const queryText = useDebouncedValue(text, 200);
  const params = { ...(queryText.trim() ? { queryText } : {}), limit: 8 };
  const results = useQuery({
    queryKey: customerKeys.list(params),
    queryFn: async ({ signal }) => (await callApi(customerRoutes.list, { filter: params, signal })).data,
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const options = results.data ?? [];
  /** The list answers what is typed now (not an earlier text still shown while the new one loads). */
  const current = queryText === text && !results.isPlaceholderData && !results.isFetching;
  // Enter pressed before the list caught up with the text: the top match of that text is taken once it arrives.
  const [pickWhenCurrent, setPickWhenCurrent] = useState(false);
  useEffect(() => {
    if (!pickWhenCurrent || !current || !open) return;
    setPickWhenCurrent(false);
    pick(0);
    // pick reads the options of this render, which `current` says are the text's own.
  }, [pickWhenCurrent, current]);

  function pick(index: number) {
    const c = options[index];
    if (!c) return;
    onChange({ id: c.id, name: c.full_name });
    setText(c.full_name);
    setOpen(false);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, Math.max(options.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter' && open) {
      event.preventDefault();
      // The list may still show the results of what was typed before: never pick from those, but
      // take the top match of what was typed once it is there.
      if (current) pick(active);
      else setPickWhenCurrent(true);
    } else if (event.key === 'Escape') {
      setOpen(false);
      setPickWhenCurrent(false);
    }
  }

  const expanded = open && options.length > 0;
  return (
    <div className="customer-picker">
      <TextField
        label="Customer"
        data-field="customer_id"
        required
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded ? `${listId}-${active}` : undefined}
        autoComplete="off"
        placeholder="Type a name, email or phone"
        value={text}
        error={error}
        hint={value ? `Selected: ${value.name}` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
          setPickWhenCurrent(false);
          if (value && e.target.value !== value.name) onChange(null);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() =>
          setTimeout(() => {
            setOpen(false);
            setPickWhenCurrent(false);
          }, 150)
        }
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label="Matching customers" className="customer-picker__list" hidden={!expanded}>
        {options.map((c, i) => (
          <li
            key={c.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className="customer-picker__option"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(i)}
          >
            <span>{c.full_name}</span> <span className="otto-muted">{c.email}</span>
          </li>
        ))}
      </ul>
      {open && results.isSuccess && options.length === 0 && (
        <p className="otto-muted" role="status">
          No customer matches “{text}”.
        </p>
      )}
    </div>
  );
}
