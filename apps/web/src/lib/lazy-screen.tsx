import { Suspense, lazy, type ComponentType } from 'react';

/** The spec's plain-text placeholder while a screen's code loads. */
export function LoadingScreen() {
  return <p className="otto-loading">Loading...</p>;
}

let screens = 0;

/**
 * A route element whose code loads on first visit, showing "Loading..." meanwhile. Each screen
 * gets its own Suspense boundary (a key), so moving to a screen still loading shows "Loading..."
 * instead of leaving the previous screen up and usable.
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>) {
  const Screen = lazy(load);
  return (
    <Suspense key={`screen-${screens++}`} fallback={<LoadingScreen />}>
      <Screen />
    </Suspense>
  );
}
