import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { LoadingScreen, lazyScreen } from './lib/lazy-screen';

/** The routes of spec section 2. Every screen loads lazily. */
export const routes: RouteObject[] = [
  {
    path: '/',
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      { index: true, element: lazyScreen(() => import('./routes/landing')) },
      {
        path: 'biz',
        element: lazyScreen(() => import('./routes/biz/biz-layout')),
        children: [
          { index: true, element: <Navigate to="/biz/customers" replace /> },
          {
            path: 'jobs',
            element: lazyScreen(() => import('./routes/biz/jobs/jobs-layout')),
            children: [
              { index: true, element: lazyScreen(() => import('./routes/biz/jobs/job-list-screen')) },
              { path: 'edit', element: lazyScreen(() => import('./routes/biz/jobs/edit-job-screen')) },
              { path: 'new', element: lazyScreen(() => import('./routes/biz/jobs/new-job-screen')) },
            ],
          },
          {
            path: 'customers',
            element: lazyScreen(() => import('./routes/biz/customers/customers-layout')),
            children: [
              { index: true, element: lazyScreen(() => import('./routes/biz/customers/customer-list-screen')) },
              { path: 'edit/:id', element: lazyScreen(() => import('./routes/biz/customers/edit-customer-screen')) },
              { path: 'new', element: lazyScreen(() => import('./routes/biz/customers/new-customer-screen')) },
            ],
          },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
