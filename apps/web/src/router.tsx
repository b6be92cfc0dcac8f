import { Navigate, createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { LoadingScreen, lazyScreen, type LazyRoute } from './lib/lazy-screen';
import { RouteError } from './lib/route-error';

/** The routes of spec section 2. Every screen loads lazily. */
export const routes: RouteObject[] = [
  {
    path: '/',
    hydrateFallbackElement: <LoadingScreen />,
    errorElement: <RouteError />,
    children: [
      { index: true, ...lazyScreen(() => import('./routes/landing')) },
      {
        path: 'biz',
        ...lazyScreen(() => import('./routes/biz/biz-layout')),
        children: [
          { index: true, element: <Navigate to="/biz/customers" replace /> },
          { path: 'overview', ...lazyScreen(() => import('./routes/biz/overview/overview-screen')) },
          {
            path: 'jobs',
            ...lazyScreen(() => import('./routes/biz/jobs/jobs-layout')),
            children: [
              { index: true, ...lazyScreen(() => import('./routes/biz/jobs/job-list-screen')) },
              { path: 'edit', ...lazyScreen(() => import('./routes/biz/jobs/edit-job-screen')) },
              { path: 'new', ...lazyScreen(() => import('./routes/biz/jobs/new-job-screen')) },
            ],
          },
          {
            path: 'invoices',
            ...lazyScreen(() => import('./routes/biz/invoices/invoices-layout')),
            children: [
              { index: true, ...lazyScreen(() => import('./routes/biz/invoices/invoice-list-screen')) },
              { path: 'new', ...lazyScreen(() => import('./routes/biz/invoices/new-invoice-screen')) },
              { path: ':id', ...lazyScreen(() => import('./routes/biz/invoices/invoice-screen')) },
              { path: ':id/edit', ...lazyScreen(() => import('./routes/biz/invoices/edit-invoice-screen')) },
            ],
          },
          { path: 'schedule', ...lazyScreen(() => import('./routes/biz/schedule/schedule-screen')) },
          { path: 'settings', ...lazyScreen(() => import('./routes/biz/settings/settings-screen')) },
          { path: 'archived', ...lazyScreen(() => import('./routes/biz/archived/archived-screen')) },
          {
            path: 'customers',
            ...lazyScreen(() => import('./routes/biz/customers/customers-layout')),
            children: [
              { index: true, ...lazyScreen(() => import('./routes/biz/customers/customer-list-screen')) },
              { path: 'edit/:id', ...lazyScreen(() => import('./routes/biz/customers/edit-customer-screen')) },
              { path: 'new', ...lazyScreen(() => import('./routes/biz/customers/new-customer-screen')) },
            ],
          },
        ],
      },
    ],
  },
];

/**
 * Loads the code of every screen the URL shows (`lazyScreen`'s preload), so that the first render
 * finds them loaded.
 * @example
 * await preloadScreens(window.location.pathname);
 */
export function preloadScreens(pathname: string): Promise<unknown> {
  const matches = matchRoutes(routes, pathname) ?? [];
  return Promise.all(matches.map((match) => (match.route.handle as LazyRoute['handle'] | undefined)?.preload()));
}

/**
 * Starts the first requests of every screen the URL shows whose code is loaded (`preloadScreens`),
 * into the app's query cache: the backend answers them while React renders the first screen,
 * instead of after that render asked.
 * @example
 * prefetchScreens(new URL(window.location.href), queryClient);
 */
export function prefetchScreens(url: URL, queryClient: QueryClient): void {
  for (const match of matchRoutes(routes, url.pathname) ?? []) (match.route.handle as LazyRoute['handle'] | undefined)?.prefetch(queryClient, url);
}

export function createRouter() {
  return createBrowserRouter(routes);
}
