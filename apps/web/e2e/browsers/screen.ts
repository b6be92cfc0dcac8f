// What the shared flows do on a screen, the same in every browser: elements are found in the page
// by role and accessible name, by label or by text (like a person finds them), marked, and then
// clicked and typed into with the browser's own input through its client (driver.ts).
import { NotClickedError, type BrowserName, type Tab } from './driver';

/** An element as a person finds it. */
export interface Target {
  role?: 'button' | 'link' | 'heading' | 'row' | 'searchbox' | 'dialog' | 'region' | 'table' | 'status';
  /** Accessible name (aria-label, aria-labelledby, the label of a field, else the text). */
  name?: string;
  /** Match `name` as a part of the accessible name rather than all of it. */
  partial?: boolean;
  /** A form field by its label. */
  label?: string;
  /** A CSS selector (for what has no role or label). */
  css?: string;
  /** Also elements that are not shown (a hidden file input). */
  hidden?: boolean;
  /** Only inside the first match of this. */
  within?: Target;
}

type Operation = 'mark' | 'count' | 'value' | 'text';

/** Runs in the page (serialized): finds the targets and answers what `op` asks. */
function queryInPage(input: { target: Target; op: Operation; mark: string }): string | number | null {
  const roles: Record<string, string> = {
    button: 'button,[role=button],input[type=submit],input[type=button]',
    link: 'a[href],[role=link]',
    heading: 'h1,h2,h3,h4,h5,h6,[role=heading]',
    row: 'tr,[role=row]',
    searchbox: 'input[type=search],[role=searchbox]',
    dialog: 'dialog,[role=dialog],[role=alertdialog]',
    region: 'section[aria-labelledby],section[aria-label],[role=region]',
    table: 'table,[role=table]',
    status: '[role=status]',
  };
  const norm = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
  const textOf = (el: Element): string => {
    const copy = el.cloneNode(true) as Element;
    for (const hidden of Array.from(copy.querySelectorAll('[aria-hidden=true]'))) hidden.remove();
    return norm(copy.textContent);
  };
  const nameOf = (el: Element): string => {
    const aria = el.getAttribute('aria-label');
    if (aria) return norm(aria);
    const by = el.getAttribute('aria-labelledby');
    if (by) return norm(by.split(' ').map((id) => (document.getElementById(id) ? textOf(document.getElementById(id)!) : '')).join(' '));
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length > 0) return textOf(labels[0]!);
    return textOf(el);
  };
  const shown = (el: Element) => input.target.hidden || (el.getClientRects().length > 0 && !el.closest('[hidden]'));
  const matches = (name: string, wanted: string, partial?: boolean) => (partial ? name.includes(wanted) : name === wanted);
  const find = (target: Target, root: ParentNode): Element[] => {
    const scope = target.within ? find(target.within, root)[0] : root;
    if (!scope) return [];
    let found: Element[];
    if (target.label !== undefined) {
      found = Array.from(scope.querySelectorAll('label'))
        .filter((label) => matches(textOf(label), target.label!, target.partial))
        .map((label) => label.control)
        .filter((el): el is HTMLElement => el !== null);
      found.push(...Array.from(scope.querySelectorAll(`[aria-label="${CSS.escape(target.label)}"]`)));
    } else {
      found = Array.from(scope.querySelectorAll(target.css ?? (target.role ? roles[target.role]! : '*')));
      if (target.name !== undefined) found = found.filter((el) => matches(nameOf(el), target.name!, target.partial));
    }
    return found.filter(shown);
  };
  const all = find(input.target, document);
  if (input.op === 'count') return all.length;
  const first = all[0];
  if (!first) return null;
  if (input.op === 'value') return (first as HTMLInputElement).value;
  if (input.op === 'text') return textOf(first);
  first.setAttribute('data-e2e-target', input.mark);
  return `[data-e2e-target="${input.mark}"]`;
}

/** Runs in the page: sets a field's value the way React hears it (native setter, then the event). */
function setValueInPage(input: { selector: string; value: string; event: 'input' | 'change' }): null {
  const el = document.querySelector(input.selector) as HTMLInputElement | HTMLSelectElement;
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value')!.set!;
  setter.call(el, input.value);
  el.dispatchEvent(new Event(input.event, { bubbles: true }));
  return null;
}

let marks = 0;

export class Screen {
  constructor(
    readonly tab: Tab,
    readonly browser: BrowserName,
  ) {}

  /** Runs `fn(arg)` in the page; `fn` must be self-contained (it is sent as source). */
  evaluate<T, A = null>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> {
    return this.tab.run<T>(`(${fn.toString()})(${JSON.stringify(arg ?? null)})`);
  }

  goto(path: string): Promise<void> {
    return this.tab.goto(path);
  }

  reload(): Promise<void> {
    return this.tab.reload();
  }

  url(): Promise<URL> {
    return this.tab.url();
  }

  /** Waits until `fn(arg)` in the page answers something truthy, and answers it. */
  async waitFor<T, A = null>(what: string, fn: (arg: A) => T | Promise<T>, arg?: A, timeoutMs = 30_000): Promise<NonNullable<T>> {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    for (;;) {
      try {
        const value = await this.evaluate(fn, arg);
        if (value) return value as NonNullable<T>;
      } catch (error) {
        // A navigation in progress replaces the page under the script: try again.
        lastError = error;
      }
      if (Date.now() > deadline) {
        // The address and the main region's text (the header and notices come first in the body and
        // would fill a short excerpt).
        // And any dialog open over it (a "Leave without saving?" sits outside the main region).
        const shows = await this.evaluate(() => {
          const main = document.querySelector('main') ?? document.body;
          const dialogs = [...document.querySelectorAll('[role="dialog"], [role="alertdialog"], dialog[open]')]
            .map((d) => `[${d.getAttribute('role') ?? 'dialog'}: ${((d as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').slice(0, 200)}]`)
            .join(' ');
          return `${location.pathname}${location.search}: ${dialogs ? `${dialogs} ` : ''}${(main?.innerText ?? '').replace(/\s+/g, ' ').slice(0, 800)}`;
        }).catch(() => '(no page)');
        throw new Error(
          `${this.browser}: waited ${timeoutMs / 1000} s for ${what}. The page shows: ${JSON.stringify(shows)}${lastError ? `; last error: ${String(lastError)}` : ''}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits until the page's text contains `text`. */
  waitForText(text: string, timeoutMs?: number): Promise<boolean> {
    return this.waitFor(`the text “${text}”`, (t) => document.body?.innerText.replace(/\s+/g, ' ').includes(t) ?? false, text, timeoutMs);
  }

  /** Waits until the URL satisfies `test`. */
  async waitForUrl(what: string, test: (url: URL) => boolean, timeoutMs = 30_000): Promise<URL> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const url = await this.url();
      if (test(url)) return url;
      if (Date.now() > deadline) throw new Error(`${this.browser}: waited for the URL to be ${what}; it is ${url.href}.`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private query(target: Target, op: Operation): Promise<string | number | null> {
    return this.evaluate(queryInPage, { target, op, mark: String(++marks) });
  }

  /** Waits for the element and answers a CSS selector that matches it alone. */
  find(target: Target, timeoutMs?: number): Promise<string> {
    return this.waitFor(`${describe(target)} to be shown`, queryInPage, { target, op: 'mark' as const, mark: String(++marks) }, timeoutMs) as Promise<string>;
  }

  async count(target: Target): Promise<number> {
    return (await this.query(target, 'count')) as number;
  }

  async textOf(target: Target): Promise<string> {
    await this.find(target);
    return (await this.query(target, 'text')) as string;
  }

  async valueOf(target: Target): Promise<string> {
    await this.find(target);
    return (await this.query(target, 'value')) as string;
  }

  /** Waits until the field shows `value`. */
  async waitForValue(label: string, value: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await this.query({ label }, 'value').catch(() => null);
      if (current === value) return;
      if (Date.now() > deadline) throw new Error(`${this.browser}: the field “${label}” shows ${JSON.stringify(current)}, not “${value}”.`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Finds the element and acts on it; found again when React replaced it in between (a form filled
   * from data that just arrived), or when something still covered it. Three tries. `retry` says
   * which failures allow another try: an action that may have taken effect is not done twice.
   */
  private async act(target: Target, action: (selector: string) => Promise<void>, retry: (error: unknown) => boolean): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const selector = await this.find(target);
      try {
        await action(selector);
        return;
      } catch (error) {
        if (attempt >= 3 || !retry(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
  }

  /** Clicks the element with the browser's own input. */
  click(target: Target): Promise<void> {
    // A click is not idempotent: tried again only when the driver knows it did not happen.
    return this.act(target, (selector) => this.tab.click(selector), (error) => error instanceof NotClickedError);
  }

  /**
   * Replaces a field's value: emptied in the page, then typed key by key with the browser's own
   * input. Date and time fields are set in the page (each browser's date picker takes keys its own way).
   */
  fill(label: string, value: string): Promise<void> {
    // Idempotent (the field is emptied first): any failure may be tried again.
    return this.act({ label }, (selector) => this.fillSelector(selector, value), () => true);
  }

  private async fillSelector(selector: string, value: string): Promise<void> {
    const type = await this.evaluate((s) => (document.querySelector(s) as HTMLInputElement).type, selector);
    if (type.startsWith('date') || type === 'time') {
      await this.evaluate(setValueInPage, { selector, value, event: 'input' as const });
      return;
    }
    await this.evaluate(setValueInPage, { selector, value: '', event: 'input' as const });
    if (value) await this.tab.type(selector, value);
  }

  /** Presses one key on the element (focused first), with the browser's own input. */
  press(target: Target, key: Parameters<Tab['press']>[1]): Promise<void> {
    return this.act(target, (selector) => this.tab.press(selector, key), (error) => error instanceof NotClickedError);
  }

  /** Drags one element onto another with the browser's own pointer input. */
  async drag(from: Target, to: Target): Promise<void> {
    const [a, b] = [await this.find(from), await this.find(to)];
    await this.tab.drag(a, b);
  }

  /** Chooses an option of a select by its value (set in the page, then the change event). */
  select(label: string, value: string): Promise<void> {
    return this.act({ label }, async (selector) => {
      await this.evaluate(setValueInPage, { selector, value, event: 'change' as const });
    }, () => true);
  }

  screenshot(path: string): Promise<void> {
    return this.tab.screenshot(path);
  }
}

function describe(target: Target): string {
  if (target.label !== undefined) return `the field “${target.label}”`;
  const what = target.role ?? target.css ?? 'element';
  return target.name !== undefined ? `${what} “${target.name}”` : what;
}
