import { describe, expect, it } from 'vitest';
import { isTypingIn } from './is-typing';
import { shortcutHint, shortcutText } from './shortcut-list';

function element(html: string): Element {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host.firstElementChild!;
}

describe('isTypingIn', () => {
  it('returns true for text fields, text areas, selects, editable elements and comboboxes', () => {
    for (const html of ['<input>', '<input type="search">', '<input type="datetime-local">', '<textarea></textarea>', '<select></select>', '<div role="combobox"></div>']) {
      expect(isTypingIn(element(html)), html).toBe(true);
    }
  });

  it('returns false for buttons, links, checkboxes and the page itself', () => {
    for (const html of ['<button>Save</button>', '<a href="/">x</a>', '<input type="checkbox">', '<input type="submit">']) {
      expect(isTypingIn(element(html)), html).toBe(false);
    }
    expect(isTypingIn(document.body)).toBe(false);
    expect(isTypingIn(null)).toBe(false);
  });
});

describe('shortcut hints', () => {
  it('writes combinations with + and sequences with "then"', () => {
    expect(shortcutText(['g', 'c'], true)).toBe('G then C');
    expect(shortcutText(['?'])).toBe('?');
    expect(['Ctrl+K', '⌘+K']).toContain(shortcutText(['Mod', 'K']));
  });

  it('gives aria-keyshortcuts in the ARIA syntax', () => {
    expect(shortcutHint(['n'])['aria-keyshortcuts']).toBe('n');
    expect(shortcutHint(['g', 'j'], true)['aria-keyshortcuts']).toBe('g j');
    expect(['Control+Enter', 'Meta+Enter']).toContain(shortcutHint(['Mod', 'Enter'])['aria-keyshortcuts']);
  });
});
