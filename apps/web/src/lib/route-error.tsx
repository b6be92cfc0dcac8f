import { Button, Notice, PageHeader } from '@otto/ui';
import type { ErrorInfo } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/**
 * A screen's code that did not load: an update removed it, the network is gone, or the page is
 * being left (each browser words it its own way; Vite's preload of the screen's CSS its own).
 */
function isLoadFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(message);
}

/**
 * Says in the console what a screen failed on, once (React's `onCaughtError`): a load cut off is
 * no bug in Otto (a page that is left cuts off its loads, and Firefox reports each), so a warning.
 * @example
 * createRoot(element, { onCaughtError: reportRenderError });
 */
export function reportRenderError(error: unknown, info?: ErrorInfo): void {
  const log = isLoadFailure(error) ? console.warn : console.error;
  log('Otto could not show this screen:', error, info?.componentStack ?? '');
}

/**
 * Shown in place of a screen that failed to render (React Router's own fallback is a developer's
 * page): what happened, in words, and a reload, which starts the screen over with the newest code.
 */
export function RouteError() {
  const error = useRouteError();
  const words = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : isLoadFailure(error)
      ? 'Part of Otto could not be loaded (Otto may have been updated, or the network is gone).'
      : error instanceof Error
        ? error.message
        : String(error);
  return (
    <main className="otto-stack otto-route-error">
      <PageHeader title="This screen could not be shown" />
      <Notice tone="error" title={words} action={<Button variant="primary" onClick={() => location.reload()}>Reload</Button>}>
        Your data is safe: nothing was lost. Reload the page to try again.
      </Notice>
    </main>
  );
}
