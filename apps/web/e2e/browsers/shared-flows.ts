// The core flows of Otto, written once against the browser-neutral driver and run per browser
// (shared-flows.<browser>.e2e.test.ts): first visit, every screen, list, search, paging, create,
// edit, reload persistence, two tabs on one database, the job lifecycle, backup and restore, and
// offline after one visit. What a browser cannot do is stated in `support` below with the reason,
// and its test asserts the fallback Otto shows instead; nothing is skipped. Every flow fails on a
// console error, an uncaught exception or an unhandled rejection in any of its tabs (driver.ts,
// `takeProblems`), except the messages it names itself, each with its reason (`closeTabs`).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshotsWanted } from '../harness';
import { startStaticServer, type StaticServer } from '../static-server';
import { armEarlyFetch, earlyFetchProbe, takeEarlyFetch } from './early-fetch-probe';
import { consoleWatchSource } from './console-watch';
import type { BrowserName, BrowserSession, LaunchBrowser, Tab } from './driver';
import { Screen } from './screen';

/**
 * Where each browser keeps Otto's database, and why when it is not OPFS. (The memory fallback, for
 * a browser with neither OPFS nor IndexedDB, is checked in Chromium by backend.e2e.test.ts.)
 */
export const support: Record<BrowserName, { storage: 'opfs' | 'indexeddb'; why?: string }> = {
  chromium: { storage: 'opfs' },
  firefox: { storage: 'opfs' },
  webkit: {
    storage: 'indexeddb',
    why: 'WebKitGTK has no Origin Private File System (navigator.storage.getDirectory is missing): a snapshot in IndexedDB instead',
  },
};

/** A console error a flow causes on purpose, and why (a browser need not print it). */
interface ExpectedProblem {
  pattern: RegExp;
  why: string;
}

/** Chromium logs every 4xx answer to a fetch as a console error ("Failed to load resource"). */
const notFoundAnswer = (path: string, why: string): ExpectedProblem => ({
  pattern: new RegExp(`^console\\.error: Failed to load resource: the server responded with a status of 404 \\(\\) \\(http://[^/]+${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`),
  why,
});

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const screenshotDir = fileURLToPath(new URL('../screenshots/', import.meta.url));
const flowTimeout = 180_000;

interface BackendStatus {
  role: string;
  storage: string;
  fallbackReason?: string;
}

/**
 * Which flows a browser runs on every `npm test`. Chromium's own suite already asserts most of
 * them (each named here with the file that does, decision 0041): those run in Chromium only in
 * `npm run test:long`, which runs every flow.
 */
export interface SharedFlowOptions {
  /** Flow titles (their beginning) already asserted elsewhere in this browser, with where. */
  coveredElsewhere?: Record<string, string>;
}

export function sharedFlows(name: BrowserName, launch: LaunchBrowser, { coveredElsewhere = {} }: SharedFlowOptions = {}): void {
  const long = process.env.OTTO_E2E === 'long';
  /** `it`, for a flow this run asserts (see SharedFlowOptions). */
  const flow = (title: string, options: { timeout: number }, fn: () => Promise<void>) => {
    if (!long && Object.keys(coveredElsewhere).some((start) => title.startsWith(start))) return;
    it(title, options, fn);
  };
  const expected = support[name];
  /**
   * Firefox reports, as an uncaught error in the page, a load the service worker was answering when
   * the page was left or its worker ended ("A ServiceWorker intercepted the request and encountered
   * an unexpected error"); other browsers say nothing. Allowed only in the flows where it was seen,
   * for the address seen, each with why (OTTO_E2E_SHOW_ALLOWED=1 prints each one let through).
   */
  const cutOffLoad = (address: string, why: string): ExpectedProblem[] =>
    name === 'firefox' ? [{ pattern: new RegExp(`^uncaught: Error: Failed to load ‘${address}’\\. A ServiceWorker intercepted the request and encountered an unexpected error\\.$`), why }] : [];
  /**
   * The same report with no address, in any flow: ten repeat runs on 2026-12-08 saw it 8 times in
   * four flows (offline 3, backup 2, every screen 2, invoice 1). Which load it is has not been found
   * (issue 52): it stays allowed in every Firefox flow until it is understood, and
   * OTTO_E2E_SHOW_ALLOWED=1 names the flow each time.
   */
  const noAddressCutOff = cutOffLoad('', 'a load Firefox reports with no address, not yet understood (issue 52)');
  let server: StaticServer | undefined;
  let session: BrowserSession;
  const open: Tab[] = [];

  beforeAll(async () => {
    // WebKit's client cannot watch the console: its pages load a watch of their own first.
    server = await startStaticServer(dist, 0, { headScript: name === 'webkit' ? `${earlyFetchProbe}\n${consoleWatchSource}` : earlyFetchProbe });
    session = await launch(server.url);
    mkdirSync(screenshotDir, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  /** A new tab on `path`, once the backend runs in it and the service worker controls it. */
  async function tab(path: string): Promise<Screen> {
    const t = await session.newTab();
    open.push(t);
    const screen = new Screen(t, name);
    await screen.goto(path);
    await ready(screen);
    return screen;
  }

  /**
   * Closes the flow's tabs, and fails it on what went wrong in them (console errors, uncaught
   * errors) other than what it `expected`.
   */
  async function closeTabs(...expected: ExpectedProblem[]): Promise<void> {
    const problems: string[] = [];
    for (const t of open.splice(0)) {
      problems.push(...(await t.takeProblems()));
      await t.close().catch(() => undefined);
    }
    const allowed = [...expected, ...noAddressCutOff];
    // OTTO_E2E_SHOW_ALLOWED=1 prints each line a named problem let through, with its reason.
    if (process.env.OTTO_E2E_SHOW_ALLOWED === '1') {
      for (const line of problems) {
        const by = allowed.find(({ pattern }) => pattern.test(line));
        if (by) console.log(`${name}: allowed (${by.why}) in “${expect.getState().currentTestName ?? '?'}”: ${line}`);
      }
    }
    const unexpected = problems.filter((line) => !allowed.some(({ pattern }) => pattern.test(line)));
    expect(unexpected, `${name}: console errors or uncaught errors in the flow's tabs`).toEqual([]);
  }

  // A flow that failed before its closeTabs(): its tabs are closed without a second verdict, and
  // what went wrong in them (the DB worker's errors included: it tells its page) is printed, as the
  // failure's likely cause.
  afterEach(async () => {
    for (const t of open.splice(0)) {
      const problems = await t.takeProblems().catch(() => [] as string[]);
      if (problems.length > 0) console.error(`${name}: what went wrong in a tab of a failed flow:\n${problems.join('\n')}`);
      await t.close().catch(() => undefined);
    }
  });

  function ready(screen: Screen): Promise<BackendStatus> {
    return screen.waitFor(
      'the backend to start and the service worker to control the page',
      () => (typeof window.ottoBackendStatus === 'function' && navigator.serviceWorker?.controller ? window.ottoBackendStatus() : null),
      null,
      60_000,
    ) as Promise<BackendStatus>;
  }

  function shot(screen: Screen, what: string): Promise<void> {
    // Kept when the run asks for them (harness.ts): each costs a second or more over WebDriver.
    if (!screenshotsWanted) return Promise.resolve();
    return screen.screenshot(join(screenshotDir, `shared-${name}-${what}.png`));
  }

  async function api<T>(screen: Screen, path: string): Promise<{ status: number; json: T }> {
    return screen.evaluate(async (p) => {
      const res = await fetch(p);
      return { status: res.status, json: await res.json() };
    }, path) as Promise<{ status: number; json: T }>;
  }

  /** Creates a customer through the screens, moving inside the app (no page load: in memory mode a load starts over). */
  let made = 0;
  async function createCustomer(screen: Screen, fullName: string, phone = `+44 20 7946 ${1100 + ++made}`): Promise<string> {
    await screen.click({ role: 'link', name: 'Customers', within: { css: 'nav[aria-label="Main"]' } });
    await screen.click({ role: 'link', name: 'New customer' });
    await screen.find({ role: 'heading', name: 'New customer' });
    await screen.fill('Full name', fullName);
    // Each its own email and phone: the same ones again would rightly be flagged as a duplicate.
    await screen.fill('Email', `${fullName.toLowerCase().replace(/\W+/g, '.')}@example.com`);
    await screen.fill('Phone', phone);
    await screen.click({ role: 'button', name: 'Create customer' });
    await screen.waitForText(`${fullName} was added.`);
    const url = await screen.waitForUrl('a customer’s edit page', (u) => /\/biz\/customers\/edit\/\d+$/.test(u.pathname));
    // The edit screen itself, not only its address: a flow that reloads or leaves next would
    // otherwise cut off the loads of its code (WebKit reports each as a failed load).
    await screen.find({ role: 'heading', name: fullName });
    return url.pathname.split('/').pop()!;
  }

  /** Searches the customer list, moving inside the app. */
  async function searchCustomers(screen: Screen, text: string): Promise<void> {
    await screen.click({ role: 'link', name: 'Customers', within: { css: 'nav[aria-label="Main"]' } });
    await screen.fill('Search customers', text);
    await screen.waitForUrl(`?q=${text}`, (u) => u.searchParams.get('q') === text);
  }

  /** `it` for the flows this browser runs; the others are named in `support` with the reason. */

  const title = name === 'chromium' ? 'Chromium' : name === 'firefox' ? 'Firefox' : 'WebKit';
  describe(`shared flows in ${title}`, () => {
    flow('first visit: the list comes from the in-browser database, /api through the service worker', { timeout: flowTimeout }, async () => {
      const screen = await tab('/biz/customers');
      const status = await ready(screen);
      expect(status.role).toBe('leader');
      expect(status.storage).toBe(expected.storage);
      await screen.waitFor('ten customers in the table', async () => document.querySelectorAll('table tr').length === 11);
      await screen.waitForText('Page 1 of 50');
      const answer = await api<{ id: string }[]>(screen, `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit: 3 }))}`);
      expect(answer.status).toBe(200);
      expect(answer.json).toHaveLength(3);
      if (expected.storage === 'indexeddb') {
        // No OPFS: the data is kept as a snapshot in IndexedDB, and the notice says what is and is not kept.
        expect(status.fallbackReason).toContain('navigator.storage.getDirectory');
        await screen.waitForText('Your data is kept in this browser’s IndexedDB');
      }
      expect(await screen.count({ role: 'heading', name: 'Changes will not be kept' })).toBe(0);
      await shot(screen, 'customer-list');
      await closeTabs();
    });

    flow('opens every screen', { timeout: flowTimeout }, async () => {
      const screen = await tab('/biz/customers');
      const [customer] = (await api<{ id: string }[]>(screen, `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`)).json;
      const [job] = (await api<{ id: string }[]>(screen, '/api/jobs')).json;
      const routes: [string, string][] = [
        ['/biz/customers', 'Customers'],
        ['/biz/customers/new', 'New customer'],
        [`/biz/customers/edit/${customer!.id}`, 'Save changes'],
        ['/biz/jobs', 'Jobs'],
        ['/biz/jobs/new', 'New job'],
        [`/biz/jobs/edit?id=${job!.id}`, 'Save changes'],
        ['/biz/jobs/edit', 'No job chosen'],
        ['/biz/customers/edit/999999', 'Customer not found'],
      ];
      for (const [path, shows] of routes) {
        await screen.goto(path);
        // The app runs on each screen before the next is opened: the first screen a page shows may
        // be the kept copy (kept-screen.js) while the app is still loading, and leaving the page
        // then cuts its loads off (Firefox reports each as an uncaught error of the page).
        await ready(screen);
        await screen.find(shows === 'Save changes' ? { role: 'button', name: shows } : { role: 'heading', name: shows });
      }
      await closeTabs(notFoundAnswer('/api/customers/999999', 'the flow opens a customer that does not exist'));
    });

    flow('pages and searches as you type, both kept in the URL', { timeout: flowTimeout }, async () => {
      const screen = await tab('/biz/customers');
      await screen.waitForText('Page 1 of 50');
      await screen.click({ role: 'button', name: 'Next', partial: true });
      await screen.waitForText('Page 2 of 50');
      expect((await screen.url()).search).toBe('?page=2');

      const [first] = (await api<{ full_name: string }[]>(screen, `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`)).json;
      const lastName = first!.full_name.split(' ').at(-1)!;
      const typed = lastName.slice(0, 3);
      await screen.fill('Search customers', typed);
      await screen.waitForUrl(`?q=${typed}`, (u) => u.searchParams.get('q') === typed);
      await screen.waitFor(`a row for ${lastName}`, (n) => [...document.querySelectorAll('table a')].some((a) => a.textContent!.includes(n)), lastName);
      await screen.reload();
      await screen.waitForValue('Search customers', typed);

      await screen.fill('Search customers', 'qqqzzzxx');
      await screen.waitForText('No customers match “qqqzzzxx”');
      await closeTabs();
    });

    flow(
      `creates and edits a customer, and keeps it after a reload${expected.why ? ` (${expected.why})` : ''}`,
      { timeout: flowTimeout },
      async () => {
        const screen = await tab('/biz/customers/new');
        await screen.fill('Full name', 'Ada Lovelace');
        await screen.fill('Email', 'ada-at-example');
        await screen.click({ role: 'button', name: 'Create customer' });
        await screen.waitForText('Enter an email address like name@example.com, or leave it empty.');
        await screen.waitForText('Enter the phone number.');
        await screen.fill('Email', 'ada@example.com');
        await screen.fill('Phone', '+44 20 7946 0000');
        await screen.click({ role: 'button', name: 'Create customer' });
        await screen.waitForText('Ada Lovelace was added.');
        const url = await screen.waitForUrl('a customer’s edit page', (u) => /\/biz\/customers\/edit\/\d+$/.test(u.pathname));
        const id = url.pathname.split('/').pop()!;
        await screen.find({ role: 'button', name: 'Save changes' });
        await screen.fill('Full name', 'Augusta Ada King');
        await screen.click({ role: 'button', name: 'Save changes' });
        await screen.waitForText('Changes to Augusta Ada King were saved.');
        await shot(screen, 'customer-edit');

        await screen.reload();
        await ready(screen);
        await screen.waitForValue('Full name', 'Augusta Ada King');
        await screen.goto('/biz/customers?q=augusta');
        await screen.find({ role: 'link', name: 'Augusta Ada King' });
        expect(id).toMatch(/^\d+$/);
        await closeTabs();
      },
    );

    flow('two tabs use one database: a write in one shows in the other without a reload', { timeout: flowTimeout }, async () => {
      const one = await tab('/biz/customers?q=twotabs');
      const two = await tab('/biz/customers?q=twotabs');
      await two.waitForText('No customers match “twotabs”');
      // One tab owns the database (it runs the DB worker); the other relays to it. (A tab closed by
      // the previous test may still hold the owner's lock for a moment.)
      const deadline = Date.now() + 30_000;
      let roles: string[] = [];
      while (Date.now() < deadline) {
        roles = [(await ready(one)).role, (await ready(two)).role];
        if (roles.includes('leader')) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(roles).toEqual(['leader', 'follower']);
      // A write from the tab that does not own the database shows in the owner's list, live.
      await createCustomer(two, 'Grace Twotabs');
      await one.find({ role: 'link', name: 'Grace Twotabs' });
      // And the other way round.
      await createCustomer(one, 'Alan Twotabs');
      await searchCustomers(two, 'twotabs');
      await two.find({ role: 'link', name: 'Alan Twotabs' });
      await two.find({ role: 'link', name: 'Grace Twotabs' });
      await closeTabs();
    });

    flow('a page that is left lets the database go at once, even into the back/forward cache (issue 33)', { timeout: flowTimeout }, async () => {
      // The schedule that failed once in a few runs in WebKit: the owner closes, the other tab takes
      // the database over and is left for another page at once. Its worker was stopped gently and
      // the page frozen in the back/forward cache before the stop ended, holding the files: the
      // next page's worker waited 10 s for them and then opened them beside it.
      const one = await tab('/biz/customers?q=leaving');
      const two = await tab('/biz/customers?q=leaving');
      open.splice(open.indexOf(one.tab), 1);
      await one.tab.close();
      // Whoever holds or waits for the database's files now is the leaving page's worker.
      const leaving = await two.evaluate(async () => {
        const locks = await navigator.locks.query();
        return [...(locks.held ?? []), ...(locks.pending ?? [])].filter((l) => l.name?.startsWith('otto-db-files:')).map((l) => l.clientId ?? '');
      });
      await two.goto('about:blank');
      const three = await tab('/biz/customers?q=leaving');
      const made = await createCustomer(three, 'Bea Leaving');
      const holders = await three.waitFor('the new page’s worker to hold the files', async () => {
        const held = (await navigator.locks.query()).held ?? [];
        const files = held.filter((l) => l.name?.startsWith('otto-db-files:'));
        return files.length > 0 ? files.map((l) => l.clientId ?? '') : null;
      });
      expect(holders.filter((id) => leaving.includes(id)), 'the left page still holds the database files').toEqual([]);
      await three.reload();
      await ready(three);
      await searchCustomers(three, 'leaving');
      await three.find({ role: 'link', name: 'Bea Leaving' });
      expect(made).toMatch(/^\d+$/);
      await closeTabs(
        ...cutOffLoad(
          'http://[^’/]+/assets/db\\.worker-[\\w-]+\\.js',
          'the second tab took the database over when the first closed and is left for about:blank at once, while its new DB worker’s script still came from the service worker (5 of 10 repeat runs)',
        ),
      );
    });

    flow('takes a job from quote to paid', { timeout: flowTimeout }, async () => {
      const screen = await tab('/biz/customers');
      const [customer] = (await api<{ id: string; full_name: string }[]>(screen, `/api/customers?filterJson=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`)).json;
      await screen.click({ role: 'link', name: customer!.full_name, within: { role: 'table' } });
      await screen.click({ role: 'link', name: `New job for ${customer!.full_name}` });
      await screen.waitForText(`Selected: ${customer!.full_name}`);
      await screen.fill('Title', 'Replace the garden gate');
      await screen.fill('Service address', '14 Rue des Écoles, Lyon');
      await screen.fill('Price', '425.00');
      await screen.click({ role: 'button', name: 'Create job' });
      await screen.waitForText(`Job “Replace the garden gate” was created for ${customer!.full_name}.`);
      await screen.waitForUrl('a job’s edit page', (u) => u.pathname === '/biz/jobs/edit' && u.searchParams.has('id'));
      // The address changes before the edit screen replaces the new-job form (its code may still be
      // loading), and both have a "Scheduled start": filled too early, the value went to the form
      // that was about to go (a CI run saved the job without a start). Wait for the edit form.
      await screen.find({ role: 'button', name: 'Save changes' });
      for (const [value, label] of [
        ['scheduled', 'Scheduled'],
        ['in_progress', 'In progress'],
        ['completed', 'Completed'],
        ['invoiced', 'Invoiced'],
        ['paid', 'Paid'],
      ] as const) {
        if (value === 'scheduled') await screen.fill('Scheduled start', '2026-12-01T09:00');
        await screen.select('Status', value);
        await screen.click({ role: 'button', name: 'Save changes' });
        await screen.waitForText(`Job “Replace the garden gate” was saved (${label}).`);
        await screen.click({ role: 'button', name: 'Dismiss notification' });
      }
      const offered = await screen.evaluate(() => [...document.querySelectorAll('select option')].map((o) => o.textContent));
      expect(offered).toEqual(['Paid']);
      await screen.click({ role: 'link', name: 'Jobs', within: { css: 'nav[aria-label="Main"]' } });
      // The tabs' counts arrive after the list and widen the tabs: a click taken before them can
      // land on the neighbour (WebKit clicked "Completed"). Wait for them, and check where it went.
      await screen.waitFor('the status tabs’ counts', () =>
        [...document.querySelectorAll('[role=group][aria-label="Filter by status"] button')].every((b) => /\d/.test(b.textContent ?? '')),
      );
      await screen.click({ role: 'button', name: 'Paid', partial: true, within: { css: '[role=group][aria-label="Filter by status"]' } });
      await screen.waitForUrl('the Paid tab', (u) => u.searchParams.get('status') === 'paid');
      await screen.fill('Search jobs', 'garden ecoles');
      await screen.find({ role: 'link', name: 'Replace the garden gate' });
      await shot(screen, 'job-list');
      await closeTabs();
    });

    flow('downloads a backup and restores it', { timeout: flowTimeout }, async () => {
      const screen = await tab('/biz/customers');
      // The browser's own save dialog is not the app's: keep the file the app hands the browser.
      await screen.evaluate(() => {
        const w = window as unknown as { ottoE2eDownload?: Blob };
        const create = URL.createObjectURL.bind(URL);
        URL.createObjectURL = (blob: Blob | MediaSource) => {
          if (blob instanceof Blob) w.ottoE2eDownload = blob;
          return create(blob);
        };
        document.addEventListener('click', (event) => {
          if (event.target instanceof HTMLAnchorElement && event.target.hasAttribute('download')) event.preventDefault();
        }, true);
        return null;
      });
      await screen.click({ role: 'button', name: 'Backup and export' });
      await screen.click({ role: 'button', name: 'Download a backup' });
      await screen.waitForText('Backup downloaded');
      // Kept here (the page is left before the restore): base64 of the bytes the app saved.
      const backup = await screen.evaluate(async () => {
        const blob = (window as unknown as { ottoE2eDownload: Blob }).ottoE2eDownload;
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(binary);
      });
      const header = Buffer.from(backup, 'base64').subarray(0, 15).toString('latin1');
      expect(header).toBe('SQLite format 3');
      await screen.click({ role: 'button', name: 'Close' });

      // A change after the backup, which the restore takes back.
      const zed = await createCustomer(screen, 'Zed Afterbackup');
      await screen.click({ role: 'button', name: 'Backup and export' });
      await screen.evaluate((base64) => {
        const blob = new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))]);
        const input = document.querySelector('input[type=file]') as HTMLInputElement;
        const files = new DataTransfer();
        files.items.add(new File([blob], 'otto-backup.sqlite3', { type: 'application/vnd.sqlite3' }));
        input.files = files.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
        return null;
      }, backup);
      await screen.click({ role: 'button', name: 'Replace my data' });
      await screen.waitForText('Restored “otto-backup.sqlite3”');
      await screen.click({ role: 'button', name: 'Close', within: { role: 'dialog' } });
      await searchCustomers(screen, 'afterbackup');
      await screen.waitForText('No customers match “afterbackup”');
      await closeTabs(
        notFoundAnswer(`/api/customers/${zed}`, 'after the restore, the screen that showed Zed Afterbackup (made after the backup) asks for Zed again, who is gone'),
        notFoundAnswer(`/api/customers/${zed}/details`, 'and for their notes and service addresses, which are gone with them'),
      );
    });

    flow('schedules a job from the unscheduled list by keyboard, then moves it by drag and by arrow key', { timeout: flowTimeout }, async () => {
      const screen = await tab('/biz/schedule');
      await ready(screen);
      // A quote of its own, the newest job, so first in the unscheduled list; the days of this week
      // and the instants of 10:00 on them, in the page's own time zone.
      const setup = await screen.evaluate(async () => {
        const post = async (path: string, body: unknown) => (await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
        const customer = (await post('/api/customers', { full_name: 'Sasha Schedule', email: 'sasha@schedule.example', phone: '+44 20 7946 4321' })) as { id: string };
        const job = (await post('/api/jobs', { customer_id: customer.id, title: 'Shared flow visit' })) as { id: string };
        const today = new Date();
        const monday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - ((today.getDay() + 6) % 7));
        const day = (offset: number) => {
          const d = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + offset, 10, 0);
          const key = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
          return { key, ten: d.getTime() };
        };
        return { id: job.id, days: [day(1), day(2), day(3)] };
      }, null);
      const [tuesday, wednesday, thursday] = setup.days as [{ key: string; ten: number }, { key: string; ten: number }, { key: string; ten: number }];
      const job = async () => (await api<{ scheduled_start_dt: number | null; status: string }>(screen, `/api/jobs/${setup.id}`)).json;
      const startsAt = async ({ id, at }: { id: string; at: number }) =>
        ((await (await fetch(`/api/jobs/${id}`)).json()) as { scheduled_start_dt: number | null }).scheduled_start_dt === at;
      const card = (day: string) => ({ css: `td[data-drop-lane=""][data-drop-day="${day}"] [data-job-id="${setup.id}"]` });
      // The keyboard: Enter on the unscheduled job opens the dialog; its fields, then Schedule.
      await screen.press({ css: `[data-unscheduled-id="${setup.id}"]` }, 'Enter');
      await screen.find({ role: 'dialog', name: 'Schedule “Shared flow visit”' });
      await screen.fill('Day', tuesday.key);
      await screen.fill('Start', '10:00');
      await screen.click({ role: 'button', name: 'Schedule', within: { role: 'dialog' } });
      await screen.find(card(tuesday.key));
      // The schedule shows a placement at once and saves it after (an optimistic move): the API
      // has it once the save is done, which on a loaded machine is after the card is drawn.
      await screen.waitFor('the job saved as scheduled on Tuesday', startsAt, { id: setup.id, at: tuesday.ten });
      expect(await job()).toMatchObject({ status: 'scheduled', scheduled_start_dt: tuesday.ten });
      await shot(screen, 'schedule');
      // Dragged to Wednesday, in the unassigned lane.
      await screen.drag(card(tuesday.key), { css: `td[data-drop-lane=""][data-drop-day="${wednesday.key}"]` });
      await screen.find(card(wednesday.key));
      await screen.waitFor('the job saved on Wednesday', startsAt, { id: setup.id, at: wednesday.ten });
      // An arrow key: a day later, Thursday.
      await screen.press(card(wednesday.key), 'ArrowRight');
      await screen.find(card(thursday.key));
      await screen.waitFor('the job saved on Thursday', startsAt, { id: setup.id, at: thursday.ten });
      await closeTabs();
    });

    flow('invoices a completed job with tax, then takes a partial and a full payment: the job is paid', { timeout: flowTimeout }, async () => {
      const screen = await tab('/biz/invoices');
      await ready(screen);
      const setup = await screen.evaluate(async () => {
        const send = async (method: string, path: string, body: unknown) =>
          (await fetch(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
        const customer = (await send('POST', '/api/customers', { full_name: 'Ivy Invoice', email: 'ivy@invoice.example', phone: '+44 20 7946 5678' })) as { id: string };
        const job = (await send('POST', '/api/jobs', { customer_id: customer.id, title: 'Shared flow repair', price_cents: 10_000, status: 'scheduled', scheduled_start_dt: Date.now() })) as { id: string };
        for (const status of ['in_progress', 'completed']) await send('POST', `/api/jobs/${job.id}/move`, { status });
        return { job: job.id };
      }, null);
      // The form starts with the job's line (1 × its price); 20 % tax on it.
      await screen.goto(`/biz/invoices/new?jobs=${setup.job}`);
      await screen.find({ role: 'heading', name: 'New invoice' });
      await screen.fill('Tax %', '20');
      await screen.waitForText('120.00');
      await screen.click({ role: 'button', name: 'Create invoice' });
      await screen.find({ role: 'button', name: 'Record payment' });
      const invoices = async () => (await api<{ id: string; total_cents: number; balance_cents: number; status: string }[]>(screen, `/api/invoices?filterJson=${encodeURIComponent(JSON.stringify({ jobId: setup.job }))}`)).json;
      const [invoice] = await invoices();
      expect(invoice).toMatchObject({ total_cents: 12_000, balance_cents: 12_000, status: 'open' });
      expect((await api<{ status: string }>(screen, `/api/jobs/${setup.job}`)).json.status).toBe('invoiced');
      await shot(screen, 'invoice');
      // A partial payment, then the rest (the amount offered is the balance left).
      await screen.fill('Amount', '50.00');
      await screen.click({ role: 'button', name: 'Record payment' });
      await screen.waitFor('the balance to be 70.00', async (id: string) => {
        const body = (await (await fetch(`/api/invoices/${id}`)).json()) as { balance_cents: number };
        return body.balance_cents === 7_000;
      }, invoice!.id);
      await screen.waitForText('70.00');
      await screen.click({ role: 'button', name: 'Record payment' });
      await screen.waitFor('the job to be paid', async (id: string) => ((await (await fetch(`/api/jobs/${id}`)).json()) as { status: string }).status === 'paid', setup.job);
      expect((await invoices())[0]).toMatchObject({ status: 'paid', balance_cents: 0 });
      await screen.waitForText('Paid');
      await closeTabs();
    });

    /**
     * A page's own /api call sent before any of its scripts run (the probe the test server puts
     * first in the page, early-fetch-probe.ts), while its own backend has not even started: it
     * waits for that backend instead of being refused (the host used to answer 503 after 3 s
     * here). Answers 200 with the list; how long it took is printed (speed is the bench's to judge).
     */
    async function callRightAfter(screen: Screen, how: 'load' | 'reload', timings: string[]): Promise<void> {
      await screen.evaluate(armEarlyFetch);
      if (how === 'load') await screen.goto('/biz/jobs');
      else await screen.reload();
      const taken = await screen.evaluate(takeEarlyFetch);
      if ('missing' in taken) throw new Error(`${name}: the probe did not run in the page after a ${how}: ${taken.missing}`);
      const answer = taken;
      expect(answer.status, `right after a ${how}: ${answer.body}`).toBe(200);
      expect(answer.body, 'a JSON list of customers').toMatch(/^\[\{"id":/);
      timings.push(`${how} ${answer.ms} ms`);
      // The app finishes its own start before the next load (Firefox reports the loads a reload
      // cuts off as errors of the page).
      await ready(screen);
      await screen.waitFor(
        'the screen drawn with its data',
        async () => Boolean(document.querySelector('main h1')) && !document.querySelector('[data-loading], #root[aria-busy="true"]') && !document.body.innerText.includes('Loading...'),
      );
    }

    flow('answers a page’s own /api call sent right after a load or a reload (issue 33)', { timeout: flowTimeout }, async () => {
      const screen = await tab('/biz/customers');
      const timings: string[] = [];
      for (const how of ['load', 'reload', 'reload'] as const) await callRightAfter(screen, how, timings);
      console.log(`${title}, online: /api/customers right after: ${timings.join(', ')}`);
      await closeTabs();
    });

    flow(
      'works offline after one visit, and keeps what was made offline after a reload',
      { timeout: flowTimeout },
      async () => {
        const screen = await tab('/biz/customers');
        await screen.waitFor('ten customers in the table', async () => document.querySelectorAll('table tr').length === 11);
        // One visit is over when the service worker controls the page (its precache complete): a
        // server stopped before that cut the precache short in a loaded full run, and a screen's
        // code was then missing offline.
        await ready(screen);
        // The web server is really stopped: the app shell comes from the service worker's precache.
        await server!.close();
        server = undefined;
        await screen.reload();
        await ready(screen);
        await screen.waitFor('ten customers in the table', async () => document.querySelectorAll('table tr').length === 11);
        await screen.click({ role: 'link', name: 'Jobs', within: { css: 'nav[aria-label="Main"]' } });
        await screen.click({ role: 'link', name: 'New job' });
        await screen.find({ role: 'heading', name: 'New job' });
        const id = await createCustomer(screen, 'Nora Offline', '+1 555 0100');
        await screen.fill('Phone', '+1 555 0199');
        await screen.click({ role: 'button', name: 'Save changes' });
        await screen.waitForText('Changes to Nora Offline were saved.');
        await screen.reload();
        await ready(screen);
        await screen.waitForValue('Phone', '+1 555 0199');
        expect(id).toMatch(/^\d+$/);
        await shot(screen, 'offline');
        // Offline too, a page's own call right after a reload waits for its backend (issue 33).
        const timings: string[] = [];
        for (const how of ['reload', 'reload'] as const) await callRightAfter(screen, how, timings);
        console.log(`${title}, offline: /api/customers right after: ${timings.join(', ')}`);
        await closeTabs();
      },
    );
  });
}
