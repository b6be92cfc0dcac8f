// When a first visit's page has shown its first screen: its service worker registers only then
// (start-backend.ts, `registerAfter`), so that installing the precache does not compete with that
// render on a first visit (decision 0008).

let markShown!: () => void;

/** Settles once start-app.tsx says the first screen has rendered its data (or has nothing to wait for). */
export const firstScreenShown = new Promise<void>((resolve) => (markShown = resolve));

/**
 * Says the first screen has rendered its data.
 * @example
 * markFirstScreenShown();
 */
export function markFirstScreenShown(): void {
  markShown();
}
