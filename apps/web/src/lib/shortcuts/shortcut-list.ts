/** One keyboard shortcut, as the `?` sheet lists it. */
export interface ShortcutInfo {
  /** Keys pressed together (`['Mod', 'K']`) or one after the other (`then`). */
  keys: string[];
  /** Keys pressed one after another, e.g. `g` then `c`. */
  sequence?: boolean;
  description: string;
}

/** Every shortcut of the /biz area, in the order the sheet shows them. `Mod` is Ctrl, or ⌘ on a Mac. */
export const shortcutGroups: { title: string; shortcuts: ShortcutInfo[] }[] = [
  {
    title: 'Anywhere',
    shortcuts: [
      { keys: ['Mod', 'K'], description: 'Open the command palette: find a customer or job, or run an action' },
      { keys: ['?'], description: 'Show this list of shortcuts' },
      { keys: ['g', 'c'], sequence: true, description: 'Go to customers' },
      { keys: ['g', 'j'], sequence: true, description: 'Go to jobs' },
      { keys: ['g', 'i'], sequence: true, description: 'Go to invoices' },
      { keys: ['g', 's'], sequence: true, description: 'Go to the schedule' },
      { keys: ['Esc'], description: 'Close a dialog or the menu, or clear a search box' },
    ],
  },
  {
    title: 'Lists',
    shortcuts: [
      { keys: ['/'], description: 'Search the list' },
      { keys: ['n'], description: 'New customer, job or invoice (the screen’s New button)' },
      { keys: ['j'], description: 'Next row' },
      { keys: ['k'], description: 'Previous row' },
      { keys: ['Enter'], description: 'Open the row' },
    ],
  },
  {
    title: 'Schedule',
    shortcuts: [
      { keys: ['←', '→'], description: 'Move the focused job a day (a quarter of an hour in the day view)' },
      { keys: ['↑', '↓'], description: 'Give the focused job to the person above or below' },
      { keys: ['Shift', '→'], description: 'Make the focused job a quarter of an hour longer (Shift ← shorter)' },
      { keys: ['Enter'], description: 'Open the focused job' },
    ],
  },
  {
    title: 'Forms',
    shortcuts: [{ keys: ['Mod', 'Enter'], description: 'Save' }],
  },
];

/** True on Apple platforms, where the palette and save shortcuts use ⌘ instead of Ctrl. */
export function isApplePlatform(): boolean {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  const platform = (nav as { userAgentData?: { platform?: string } } | undefined)?.userAgentData?.platform ?? nav?.platform ?? '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** How a key is written for people: `Mod` becomes Ctrl or ⌘. */
export function keyLabel(key: string): string {
  if (key === 'Mod') return isApplePlatform() ? '⌘' : 'Ctrl';
  return key;
}

/** The words of a shortcut for a tooltip: `Ctrl+K`, `G then C`. */
export function shortcutText(keys: string[], sequence = false): string {
  return keys.map((k) => (k.length === 1 ? k.toUpperCase() : keyLabel(k))).join(sequence ? ' then ' : '+');
}

/**
 * Props that show a control's shortcut in its tooltip and tell assistive tech about it
 * (`aria-keyshortcuts`).
 * @example
 * <Link to={paths.customers.new.href()} {...shortcutHint(['n'])}>New customer</Link>
 */
export function shortcutHint(keys: string[], sequence = false): { 'aria-keyshortcuts': string; 'data-shortcut-hint': string } {
  const aria = sequence ? keys.join(' ') : keys.map((k) => (k === 'Mod' ? (isApplePlatform() ? 'Meta' : 'Control') : k)).join('+');
  return { 'aria-keyshortcuts': aria, 'data-shortcut-hint': shortcutText(keys, sequence) };
}
