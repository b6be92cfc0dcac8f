import { Suspense, lazy, type ComponentType } from 'react';

/** The spec's plain-text placeholder while a screen's code loads. */
export function LoadingScreen() {
  return <p className="otto-loading">Loading...</p>;
}

/** A route element whose code loads on first visit, showing "Loading..." meanwhile. */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>) {
  const Screen = lazy(load);
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Screen />
    </Suspense>
  );
}
