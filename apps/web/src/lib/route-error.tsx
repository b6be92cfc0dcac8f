import { Button } from '@otto/ui';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A screen's code that did not load (an update removed it, the network is gone, or the page is being left). */
function isLoadFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed/i.test(message);
}

/** What went wrong, in words. */
function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (isLoadFailure(error)) return 'Part of Otto could not be loaded (Otto may have been updated, or the network is gone).';
  return error instanceof Error ? error.message : String(error);
}

/**
 * Shown in place of a screen that failed to render (React Router's own fallback is a developer's
 * page): what happened, in words, and a reload, which starts the screen over with the newest code.
 */
export function RouteError() {
  const error = useRouteError();
  const words = describe(error);
  // Said in the console with the error's own words. A load cut off is no bug in Otto (a page that
  // is left cuts off its loads, and Firefox reports each): a warning.
  const log = isLoadFailure(error) ? console.warn : console.error;
  log(`Otto could not show this screen: ${error instanceof Error ? error.message : words}`);
  return (
    <main className="otto-route-error" role="alert">
      <h1>This screen could not be shown</h1>
      <p>{words}</p>
      <p>Your data is safe: nothing was lost. Reload the page to try again.</p>
      <Button variant="primary" onClick={() => location.reload()}>
        Reload
      </Button>
    </main>
  );
}
