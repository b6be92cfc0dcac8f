import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../paths';
import { isTypingIn } from './is-typing';

export interface BizShortcutActions {
  /** Ctrl/⌘+K: open (or close) the command palette. */
  togglePalette: () => void;
  /** `?`: open the sheet of every shortcut. */
  openSheet: () => void;
}

/** How long after `g` the second key of a `g c` / `g j` / `g i` / `g s` still counts. */
const sequenceMs = 1500;

function visible(element: Element): element is HTMLElement {
  return element instanceof HTMLElement && element.getClientRects().length > 0;
}

function first(selector: string): HTMLElement | undefined {
  return [...document.querySelectorAll(selector)].find(visible);
}

/** A modal dialog is open: the page's own shortcuts stay quiet underneath it. */
function dialogOpen(): boolean {
  return document.querySelector('dialog[open], [role="dialog"][aria-modal="true"], [role="alertdialog"]') !== null;
}

/** The list rows j and k move through: table rows (cards on phones) that link somewhere. */
function listRows(): HTMLElement[] {
  return [...document.querySelectorAll('#main tbody tr')].filter(visible).filter((row) => row.querySelector('a[href]'));
}

function moveRow(step: 1 | -1): void {
  const rows = listRows();
  if (rows.length === 0) return;
  const current = rows.findIndex((row) => row.contains(document.activeElement));
  const next = current === -1 ? (step === 1 ? 0 : rows.length - 1) : Math.min(Math.max(current + step, 0), rows.length - 1);
  const link = rows[next]?.querySelector<HTMLElement>('a[href]');
  link?.focus();
  link?.scrollIntoView({ block: 'nearest' });
}

/** Puts focus at the top of the page's content, so Tab continues from there after a jump. */
export function focusMain(): void {
  document.getElementById('main')?.focus({ preventScroll: false });
}

/**
 * The keyboard shortcuts of the /biz area (see `shortcutGroups`), on one document listener. Plain
 * keys never fire while typing in a field or under a dialog; Ctrl/⌘ ones and Escape do.
 */
export function useBizShortcuts(actions: BizShortcutActions): void {
  const navigate = useNavigate();
  const latest = useRef(actions);
  latest.current = actions;

  useEffect(() => {
    let awaitingSecond = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    function go(href: string) {
      void navigate(href);
      focusMain();
    }

    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.isComposing) return;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
        if (dialogOpen() && !document.querySelector('[data-command-palette]')) return;
        event.preventDefault();
        latest.current.togglePalette();
        return;
      }
      if (mod && event.key === 'Enter') {
        const target = event.target instanceof Element ? event.target : null;
        const form = target?.closest('form') ?? (dialogOpen() ? null : document.querySelector<HTMLFormElement>('#main form'));
        if (form) {
          event.preventDefault();
          form.requestSubmit();
        }
        return;
      }
      if (mod || event.altKey || isTypingIn(event.target) || dialogOpen()) return;

      if (awaitingSecond) {
        awaitingSecond = false;
        clearTimeout(timer);
        if (event.key === 'c') {
          event.preventDefault();
          go(paths.customers.list.href());
        } else if (event.key === 'j') {
          event.preventDefault();
          go(paths.jobs.list.href());
        } else if (event.key === 'i') {
          event.preventDefault();
          go(paths.invoices.list.href());
        } else if (event.key === 's') {
          event.preventDefault();
          go(paths.schedule.href());
        }
        return;
      }
      switch (event.key) {
        case 'g':
          awaitingSecond = true;
          timer = setTimeout(() => (awaitingSecond = false), sequenceMs);
          return;
        case '?':
          event.preventDefault();
          latest.current.openSheet();
          return;
        case '/': {
          const search = first('#main input[type="search"]');
          if (!search) return;
          event.preventDefault();
          search.focus();
          (search as HTMLInputElement).select();
          return;
        }
        case 'n': {
          // Each screen marks its own "New …" control with aria-keyshortcuts="n".
          const create = first('#main [aria-keyshortcuts="n"]');
          if (!create) return;
          event.preventDefault();
          create.click();
          return;
        }
        case 'j':
        case 'k':
          if (listRows().length === 0) return;
          event.preventDefault();
          moveRow(event.key === 'j' ? 1 : -1);
          return;
      }
    }

    document.addEventListener('keydown', onKeyDown);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [navigate]);
}
