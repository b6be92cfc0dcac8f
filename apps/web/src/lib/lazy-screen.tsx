import type { QueryClient } from '@tanstack/react-query';
import { Suspense, use, type ComponentType, type ReactElement } from 'react';

/** The spec's plain-text placeholder while a screen's code loads. */
export function LoadingScreen() {
  return (
    <p className="otto-loading" data-loading="">
      Loading...
    </p>
  );
}

/**
 * Asks for the data a screen shows first, for the URL it is opened at (`queryClient.prefetchQuery`
 * with the screen's own query options), without waiting for the answers.
 */
export type PrefetchScreenData = (queryClient: QueryClient, url: URL) => void;

/** A screen's module: the screen, and optionally what it asks for first. */
export interface ScreenModule {
  default: ComponentType;
  prefetch?: PrefetchScreenData;
}

/** What a lazy route carries: its element, and how to load its code and its first data ahead of rendering it. */
export interface LazyRoute {
  element: ReactElement;
  handle: {
    preload: () => Promise<void>;
    /** Once the code is loaded: starts the screen's first requests (nothing for a screen that has none). */
    prefetch: PrefetchScreenData;
  };
}

let screens = 0;

/**
 * A route whose screen loads on first visit, showing "Loading..." meanwhile. Each screen gets its
 * own Suspense boundary (a key), so moving to a screen still loading shows "Loading..." instead of
 * leaving the previous screen up and usable. `handle.preload()` loads the code ahead: a screen
 * whose code is loaded renders at once, without suspending (the first render after start-up then
 * shows no fallback, and so pays none of React's reveal delay for one). A screen module may export
 * `prefetch` (its first requests), which `handle.prefetch` runs once the code is in.
 * @example
 * { path: 'new', ...lazyScreen(() => import('./routes/biz/customers/new-customer-screen')) }
 */
export function lazyScreen(load: () => Promise<ScreenModule>): LazyRoute {
  let Loaded: ComponentType | undefined;
  let prefetch: PrefetchScreenData | undefined;
  // Marked fulfilled once loaded (the status React's `use` reads), so that `use` returns at once
  // for a screen whose code is in, and is called on every render: a hook called only until the
  // code arrived broke React's rules ("did not call use() when it finished").
  let loading: Promise<void> | undefined;
  const preload = (): Promise<void> => {
    if (!loading) {
      const promise = load().then((module) => {
        Loaded = module.default;
        prefetch = module.prefetch;
        Object.assign(promise, { status: 'fulfilled', value: undefined });
      });
      loading = promise;
    }
    return loading;
  };
  function Screen() {
    use(preload());
    const Component = Loaded as ComponentType;
    return <Component />;
  }
  return {
    element: (
      <Suspense key={`screen-${screens++}`} fallback={<LoadingScreen />}>
        <Screen />
      </Suspense>
    ),
    handle: { preload, prefetch: (queryClient, url) => prefetch?.(queryClient, url) },
  };
}
