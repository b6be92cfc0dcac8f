// @vitest-environment node
// The theme's text on its filled buttons, at rest and under the pointer, in light and dark: every
// pair passes WCAG AA for normal text (4.5:1). axe sees only what is on screen, never a hover colour.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('./styles/tokens.css', import.meta.url), 'utf8');
const darkAt = css.indexOf('@media (prefers-color-scheme: dark)');
const themes = { light: css.slice(0, darkAt), dark: css.slice(darkAt) };

function token(theme: string, name: string): string {
  const found = new RegExp(`--otto-color-${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(theme);
  if (!found?.[1]) throw new Error(`--otto-color-${name} is not a #rrggbb colour here`);
  return found[1];
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('filled buttons', () => {
  for (const [name, theme] of Object.entries(themes)) {
    it(`keep their text readable at rest and under the pointer (${name})`, () => {
      const onAccent = token(theme, 'text-on-accent');
      for (const background of ['accent', 'accent-hover']) {
        expect(contrast(onAccent, token(theme, background)), `${name} ${background}`).toBeGreaterThanOrEqual(4.5);
      }
      for (const background of ['danger', 'danger-hover']) {
        expect(contrast('#ffffff', token(theme, background)), `${name} ${background}`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }
});
