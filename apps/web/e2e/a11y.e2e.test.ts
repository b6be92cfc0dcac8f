// Every screen, at desktop (1280 px) and phone (375 px) width, in light and dark: axe-core finds no
// serious or critical violation, nothing scrolls sideways, phone touch targets are 44 px, and a
// screenshot of each (after its data has loaded) lands in e2e/screenshots/a11y-*.png.
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeProblems, showScheme } from './axe';
import { apiFetch, baseUrl, launchBrowser, screenshot, trackPage, waitForBackend, type TrackedPage } from './harness';

/** One screen of the sweep. Add new routes here; `path` may look up an id through the API. */
interface Screen {
  name: string;
  path: string | ((page: Page) => Promise<string>);
  /** Waits for what this screen shows once its data is there (beyond the generic checks). */
  ready?: (page: Page) => Promise<void>;
  /** Opens something on top of the screen (a dialog, the menu) before the checks. */
  open?: (page: Page, phone: boolean) => Promise<void>;
}

async function firstId(page: Page, api: string, filter: Record<string, unknown> = {}): Promise<string> {
  const call = await apiFetch(page, `${api}?filterJson=${encodeURIComponent(JSON.stringify({ ...filter, limit: 1 }))}`);
  const rows = call.json as { id: string }[];
  if (!rows[0]) throw new Error(`${api} returned no rows to open.`);
  return rows[0].id;
}

const rowsShown = async (page: Page) => {
  await page.locator('#main tbody tr a[href]').first().waitFor();
};

export const screens: Screen[] = [
  { name: 'landing', path: '/' },
  { name: 'overview', path: '/biz/overview' },
  { name: 'archived', path: '/biz/archived' },
  { name: 'customers', path: '/biz/customers', ready: rowsShown },
  { name: 'customer-new', path: '/biz/customers/new' },
  { name: 'customer-edit', path: (page) => firstId(page, '/api/customers').then((id) => `/biz/customers/edit/${id}`) },
  {
    // A customer with notes (shown at a glance under the name) and two service addresses (decision 0162).
    name: 'customer-record',
    path: async (page) => {
      const id = await firstId(page, '/api/customers', { offset: 1 });
      const body = {
        notes: 'Gate code 4411.\nDog in the garden: ring before going round the back.',
        addresses: [
          { label: 'Home', address: '1 High Street, Leeds LS1 4AB' },
          { label: 'Rental', address: '7 Mill Lane, York YO1 7HH' },
        ],
      };
      const saved = await apiFetch(page, `/api/customers/${id}/details`, { method: 'PUT', body });
      if (saved.status !== 200) throw new Error(`PUT /api/customers/${id}/details answered ${saved.status}: ${saved.text}`);
      return `/biz/customers/edit/${id}`;
    },
    ready: async (page) => {
      await page.getByRole('listitem', { name: 'Address 2' }).waitFor();
    },
  },
  { name: 'customer-missing', path: '/biz/customers/edit/999999' },
  { name: 'jobs', path: '/biz/jobs', ready: rowsShown },
  { name: 'job-new', path: '/biz/jobs/new' },
  { name: 'job-edit', path: (page) => firstId(page, '/api/jobs').then((id) => `/biz/jobs/edit?id=${id}`) },
  { name: 'job-none', path: '/biz/jobs/edit' },
  { name: 'settings', path: '/biz/settings' },
  { name: 'invoices', path: '/biz/invoices', ready: rowsShown },
  { name: 'invoice', path: (page) => firstId(page, '/api/invoices', { status: 'open' }).then((id) => `/biz/invoices/${id}`) },
  {
    name: 'invoice-new',
    path: (page) => firstId(page, '/api/jobs', { status: 'completed' }).then((id) => `/biz/invoices/new?jobs=${id}`),
    ready: async (page) => {
      await page.locator('.invoice-line').first().waitFor();
    },
  },
  { name: 'invoice-edit', path: (page) => firstId(page, '/api/invoices', { status: 'open' }).then((id) => `/biz/invoices/${id}/edit`) },
  {
    name: 'schedule',
    path: '/biz/schedule',
    ready: async (page) => {
      await page.locator('.sched-grid, .sched-agenda').first().waitFor();
      await page.getByText(/without a time|Every open job has a time/).waitFor();
    },
  },
  {
    // The import after a file was chosen: the mapping, the columns left out, the preview, a long
    // list of duplicates (it scrolls), the summary.
    name: 'import',
    path: '/biz/customers',
    ready: rowsShown,
    open: async (page) => {
      await page.getByRole('button', { name: 'Import…' }).click();
      await page.getByLabel('CSV file to import').setInputFiles(fileURLToPath(new URL('./fixtures/import/customers-with-notes.csv', import.meta.url)));
      await page.getByText('Ready: 2 customers to add').waitFor();
    },
  },
  {
    name: 'palette',
    path: '/biz/customers',
    ready: rowsShown,
    open: async (page) => {
      await page.keyboard.press('Control+K');
      const input = page.getByRole('combobox', { name: /find a customer or job/i });
      await input.fill('a');
      // The palette's own options (a list's Order select has options too).
      await page.getByRole('dialog').getByRole('option').first().waitFor();
      await page.getByText('Searching…').waitFor({ state: 'detached' });
    },
  },
  {
    name: 'shortcuts',
    path: '/biz/jobs',
    ready: rowsShown,
    open: async (page) => {
      await page.locator('body').press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    },
  },
  {
    name: 'backup',
    path: '/biz/customers',
    ready: rowsShown,
    open: async (page, phone) => {
      if (phone) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('button', { name: 'Backup and export' }).click();
      await page.getByRole('dialog').waitFor();
      await page.waitForFunction(() => !document.querySelector('[role="dialog"]')?.textContent?.includes('Loading'));
    },
  },
  {
    name: 'menu',
    path: '/biz/jobs',
    ready: rowsShown,
    open: async (page, phone) => {
      if (phone) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    },
  },
];

/** The generic "data has loaded" condition: a heading, and no loading text or busy region anywhere. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('h1, h2') !== null &&
      !/Loading/.test(document.body.innerText) &&
      document.querySelector('[aria-busy="true"]') === null,
    undefined,
    { timeout: 30_000 },
  );
}

/** Controls on a phone that are smaller than a 44 px touch target (text links inside sentences excepted). */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>('button, input:not([type="hidden"]), select, textarea, [role="option"], nav a, td a, th a, .otto-button');
    for (const el of controls) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (el.closest('.otto-visually-hidden, .otto-skip-link')) continue;
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) continue;
      if (box.height < 44 - 0.5) small.push(`${el.tagName.toLowerCase()} “${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}” is ${Math.round(box.height)} px tall`);
    }
    return small;
  });
}

// Each screen is loaded once and checked at desktop width, then made phone width in place (as a
// window narrowed or a tablet turned), in light and then dark: the colour scheme changes in place
// too. A screen that opens something on top (a dialog, the menu) is loaded again at phone width,
// where it opens differently. The sweep loads 28 pages, not 84.
const widths = [
  { label: 'desktop', width: 1280, height: 800 },
  { label: 'phone', width: 375, height: 740 },
] as const;
const schemes = ['light', 'dark'] as const;

let browser: Browser;
let ctx: BrowserContext;
let tab: TrackedPage;

beforeAll(async () => {
  browser = await launchBrowser();
  ctx = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 800 } });
  tab = await trackPage(await ctx.newPage());
  // Asking for a record that does not exist is a 404 the browser reports in the console.
  tab.allow(/status of 404/);
  await tab.page.goto('/biz/customers');
  await waitForBackend(tab.page);
});
afterAll(async () => {
  await browser?.close();
});

/** What is wrong with the layout of the screen on show: sideways scrolling, crowding, popovers outside, small targets. */
async function layoutProblems(page: Page, phone: boolean): Promise<string[]> {
  const found: string[] = [];
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (wide > 0) found.push(`scrolls sideways by ${wide} px`);
  // The sidebar scrolls on its own when the window is short: never sideways.
  const sidebar = await page.evaluate(() => {
    const bar = document.querySelector('.otto-shell__header');
    return bar ? bar.scrollWidth - bar.clientWidth : 0;
  });
  if (sidebar > 0) found.push(`the sidebar scrolls sideways by ${sidebar} px`);
  // The page's header (title and description) keeps room before what follows it.
  const gap = await page.evaluate(() => {
    const header = document.querySelector('#main .otto-page-header');
    let next = header?.nextElementSibling;
    while (next && next.getBoundingClientRect().height === 0) next = next.nextElementSibling;
    return header && next ? Math.round(next.getBoundingClientRect().top - header.getBoundingClientRect().bottom) : undefined;
  });
  if (gap !== undefined && gap < 16) found.push(`the page header is ${gap} px from what follows it`);
  // Whatever is open on top (a menu, a list of suggestions, a dialog, a tip) is inside the window.
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[role="menu"], [role="listbox"], [role="dialog"], [role="alertdialog"], [role="tooltip"]')]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.left < -0.5 || box.right > window.innerWidth + 0.5))
      .map(({ el, box }) => `${el.getAttribute('role')} “${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}” spans ${Math.round(box.left)}–${Math.round(box.right)} px`),
  );
  for (const popover of outside) found.push(`${popover}, outside the window`);
  if (phone) found.push(...(await smallTargets(page)));
  return found;
}

describe('every screen is accessible at desktop and phone width, light and dark', () => {
  for (const screen of screens) {
    it(`${screen.name}: passes axe in light and dark, fits the width and has loaded data, at desktop and phone width`, { timeout: 120_000 }, async () => {
      const { page } = tab;
      const found: string[] = [];
      let path: string | undefined;
      for (const mode of widths) {
        const phone = mode.width < 768;
        await page.setViewportSize({ width: mode.width, height: mode.height });
        // Every screen starts in light: the scheme the page loads in is not the one under test.
        await page.emulateMedia({ colorScheme: 'light' });
        if (path === undefined || screen.open) {
          path ??= typeof screen.path === 'string' ? screen.path : await screen.path(page);
          await page.goto(path);
          if (path.startsWith('/biz')) await waitForBackend(page);
        }
        await screen.ready?.(page);
        await settled(page);
        await screen.open?.(page, phone);
        const layout = await layoutProblems(page, phone);
        for (const problem of layout) found.push(`${mode.label}: ${problem}`);
        for (const scheme of schemes) {
          await showScheme(page, scheme);
          // Every rule in light; in dark the rules a colour scheme can change (axe.ts, colorRules).
          const axe = await axeProblems(page, { colorsOnly: scheme === 'dark' });
          for (const problem of axe) found.push(`${mode.label} ${scheme}: ${problem}`);
          // Every screen when the run asks for them (OTTO_SCREENSHOTS=1); a screen with a problem always.
          await screenshot(page, `a11y-${screen.name}-${mode.width}-${scheme}`, { always: layout.length + axe.length > 0 });
        }
      }
      expect(found).toEqual([]);
      expect(tab.problems()).toEqual([]);
    });
  }
});
