import { jobStatusLabels } from '@otto/api-contract';
import { Command } from 'cmdk';
import { useId, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { NativeDialog } from '../../../lib/native-dialog';
import { paths } from '../../../lib/paths';
import { shortcutText } from '../../../lib/shortcuts/shortcut-list';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { usePaletteSearch } from '../api/use-palette-search';
import './command-palette.css';

export interface CommandPaletteProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Runs "Backup and export" (absent when the data is not in this browser). */
  onBackup?: (() => void) | undefined;
  onShowShortcuts: () => void;
}

interface Action {
  id: string;
  label: string;
  keywords: string;
  hint?: string;
  run: () => void;
}

/**
 * Ctrl/⌘+K: a dialog whose search box finds customers and jobs as you type (the API's full-text
 * search) and offers actions. cmdk gives the combobox/listbox keyboard and ARIA rules, Radix the
 * dialog's (focus trapped inside, returned on close, Escape closes).
 */
export function CommandPalette({ open, onOpenChange, onBackup, onShowShortcuts }: CommandPaletteProps) {
  const titleId = useId();
  // What to do once the dialog has closed and focus is back: open another dialog, or move focus to
  // the new screen's content instead of back to where the palette was opened.
  const afterClose = useRef<(() => void) | null>(null);
  return (
    <NativeDialog
      open={open}
      onClose={() => onOpenChange(false)}
      afterClose={() => {
        const then = afterClose.current;
        afterClose.current = null;
        then?.();
      }}
      className="otto-palette"
      labelledBy={titleId}
      dataAttribute="data-command-palette"
    >
      <h2 id={titleId} className="otto-visually-hidden">
        Command palette
      </h2>
      <PaletteContent afterClose={afterClose} onClose={() => onOpenChange(false)} onBackup={onBackup} onShowShortcuts={onShowShortcuts} />
    </NativeDialog>
  );
}

function PaletteContent({
  afterClose,
  onClose,
  onBackup,
  onShowShortcuts,
}: {
  afterClose: { current: (() => void) | null };
  onClose: () => void;
  onBackup?: (() => void) | undefined;
  onShowShortcuts: () => void;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const [text, setText] = useState('');
  const searchText = useDebouncedValue(text, 120);
  const { customers, jobs, enabled } = usePaletteSearch(searchText);
  function choose(then: () => void, focus: 'main' | 'restore' = 'main') {
    afterClose.current = focus === 'main' ? () => document.getElementById('main')?.focus() : null;
    then();
    onClose();
  }

  const customerOnScreen = /^\/biz\/customers\/edit\/([^/]+)$/.exec(location.pathname)?.[1];
  const actions: Action[] = [
    ...(customerOnScreen
      ? [
          {
            id: 'new-job-for-customer',
            label: 'New job for this customer',
            keywords: 'create add job customer',
            run: () => choose(() => void navigate(paths.jobs.new.href(decodeURIComponent(customerOnScreen)))),
          },
        ]
      : []),
    { id: 'new-customer', label: 'New customer', keywords: 'create add customer', run: () => choose(() => void navigate(paths.customers.new.href())) },
    { id: 'new-job', label: 'New job', keywords: 'create add job', run: () => choose(() => void navigate(paths.jobs.new.href())) },
    { id: 'customers', label: 'Go to customers', keywords: 'customers list', hint: shortcutText(['g', 'c'], true), run: () => choose(() => void navigate(paths.customers.list.href())) },
    { id: 'overview', label: 'Go to overview', keywords: 'overview reports charts summary', run: () => choose(() => void navigate(paths.overview.href())) },
    { id: 'archived', label: 'Go to archived', keywords: 'archived restore deleted', run: () => choose(() => void navigate(paths.archived.href())) },
    { id: 'jobs', label: 'Go to jobs', keywords: 'jobs list', hint: shortcutText(['g', 'j'], true), run: () => choose(() => void navigate(paths.jobs.list.href())) },
    { id: 'invoices', label: 'Go to invoices', keywords: 'invoices bills billing payments owed paid overdue', hint: shortcutText(['g', 'i'], true), run: () => choose(() => void navigate(paths.invoices.list.href())) },
    { id: 'schedule', label: 'Go to the schedule', keywords: 'schedule calendar week day plan dispatch', hint: shortcutText(['g', 's'], true), run: () => choose(() => void navigate(paths.schedule.href())) },
    ...(onBackup
      ? [{ id: 'backup', label: 'Backup and export', keywords: 'backup export download restore csv data', run: () => choose(() => (afterClose.current = onBackup), 'restore') }]
      : []),
    { id: 'shortcuts', label: 'Keyboard shortcuts', keywords: 'help keys shortcuts', hint: '?', run: () => choose(() => (afterClose.current = onShowShortcuts), 'restore') },
  ];
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const shownActions = actions.filter((a) => words.every((w) => `${a.label} ${a.keywords}`.toLowerCase().includes(w)));

  const waiting = enabled && (text !== searchText || customers.isFetching || jobs.isFetching);
  const customerRows = enabled ? (customers.data ?? []) : [];
  const jobRows = enabled ? (jobs.data ?? []) : [];
  const failed = enabled && (customers.isError || jobs.isError);
  // The highlighted option: what the arrows chose while it is still shown, else the first one, so
  // that typing a name and pressing Enter opens the best match even when results arrive late.
  const [chosen, setChosen] = useState('');
  const values = [
    ...customerRows.map((c) => `customer:${c.id}`),
    ...jobRows.map((j) => `job:${j.id}`),
    ...shownActions.map((a) => `action:${a.id}`),
  ];
  const highlighted = values.includes(chosen) ? chosen : (values[0] ?? '');

  return (
    <>
      <Command shouldFilter={false} loop value={highlighted} onValueChange={setChosen} label="Find a customer or job, or run an action">
        <div className="otto-palette__search">
          <Command.Input
            data-autofocus=""
            className="otto-palette__input"
            value={text}
            onValueChange={setText}
            placeholder="Find a customer or job, or type an action…"
            aria-label="Find a customer or job, or run an action"
          />
          <kbd className="otto-palette__kbd">Esc</kbd>
        </div>
        <p className="otto-palette__status" role="status">
          {waiting ? 'Searching…' : failed ? 'Search failed. Close the palette and try again.' : ''}
        </p>
        <Command.List className="otto-palette__list" label="Results">
          {!waiting && <Command.Empty className="otto-palette__status">Nothing matches “{text.trim()}”.</Command.Empty>}
          {customerRows.length > 0 && (
            <Command.Group heading="Customers">
              {customerRows.map((c) => (
                <Command.Item
                  key={`c${c.id}`}
                  value={`customer:${c.id}`}
                  className="otto-palette__item"
                  onSelect={() => choose(() => void navigate(paths.customers.edit.href(c.id)))}
                >
                  <span className="otto-palette__label">{c.full_name}</span>
                  <span className="otto-palette__meta">{c.email}</span>
                </Command.Item>
              ))}
            </Command.Group>
          )}
          {jobRows.length > 0 && (
            <Command.Group heading="Jobs">
              {jobRows.map((j) => (
                <Command.Item
                  key={`j${j.id}`}
                  value={`job:${j.id}`}
                  className="otto-palette__item"
                  onSelect={() => choose(() => void navigate(paths.jobs.edit.href(j.id)))}
                >
                  <span className="otto-palette__label">{j.title}</span>
                  <span className="otto-palette__meta">
                    {j.customer_name} · {jobStatusLabels[j.status]}
                  </span>
                </Command.Item>
              ))}
            </Command.Group>
          )}
          {shownActions.length > 0 && (
            <Command.Group heading="Actions">
              {shownActions.map((a) => (
                <Command.Item key={a.id} value={`action:${a.id}`} className="otto-palette__item" onSelect={a.run}>
                  <span className="otto-palette__label">{a.label}</span>
                  {a.hint && <kbd className="otto-palette__kbd">{a.hint}</kbd>}
                </Command.Item>
              ))}
            </Command.Group>
          )}
        </Command.List>
      </Command>
      <p className="otto-palette__footer" aria-hidden="true">
        ↑↓ to move · Enter to open · Esc to close
      </p>
    </>
  );
}
