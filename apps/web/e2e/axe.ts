// axe-core in the page, for the sweep (a11y.e2e.test.ts) and for the screens only a flow reaches
// (the recovery screen, the update prompt).
import axe from 'axe-core';
import type { Page } from 'playwright-core';

const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * The rules whose outcome a colour scheme can change. Otto's dark scheme is colours only (the
 * `prefers-color-scheme: dark` blocks of tokens.css and app-shell.css set colours, shadows and
 * `color-scheme`; no script reads the scheme), so a screen that passed every rule in light is
 * checked in dark for these: the same verdict at a fraction of the rules' time.
 */
const colorRules = ['color-contrast', 'link-in-text-block'];

/**
 * Serious and critical axe violations, one line each (rule, impact, first few targets). axe-core
 * runs in the page itself, put there once per document: @axe-core/playwright's AxeBuilder injects
 * it on every call and finishes each run in a new page, which cost as much as the rules (56 runs).
 */
export async function axeProblems(page: Page, { colorsOnly = false }: { colorsOnly?: boolean } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    async ({ tags, colorRules }) =>
      (
        await (window as unknown as { axe: typeof axe }).axe.run(document, {
          ...(colorRules
            ? { runOnly: { type: 'rule' as const, values: colorRules } }
            : {
                runOnly: { type: 'tag' as const, values: tags },
                // An experimental rule, off by default, that a walkthrough found broken (issue 36): a
                // control's accessible name starts with the words it shows (WCAG 2.5.3).
                rules: { 'label-content-name-mismatch': { enabled: true } },
              }),
          resultTypes: ['violations'],
        })
      ).violations,
    { tags: axeTags, colorRules: colorsOnly ? colorRules : undefined },
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)} ${n.failureSummary ?? ''}`).join(', ')}`);
}

/**
 * Puts the page in a colour scheme and waits until it shows it. A scheme switched on a page already
 * drawn fades its colours (CSS transitions): axe measures what is on screen, so this waits for the
 * colours the scheme ends with (transitions only: a spinner's animation never ends).
 *
 * @example await showScheme(page, 'dark');
 */
export async function showScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'));
}

/**
 * `axeProblems` at desktop and phone width, light and dark, each line prefixed with its mode; the
 * page's size and colour scheme are put back after.
 */
export async function axeInEveryMode(page: Page): Promise<string[]> {
  const found: string[] = [];
  const size = page.viewportSize();
  for (const [width, height] of [
    [1280, 800],
    [375, 740],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await showScheme(page, scheme);
      for (const problem of await axeProblems(page, { colorsOnly: scheme === 'dark' })) found.push(`${width} px ${scheme}: ${problem}`);
    }
  }
  if (size) await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: null });
  return found;
}
