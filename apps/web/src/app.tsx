import { ToastProvider } from '@otto/ui';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider, type createBrowserRouter } from 'react-router';

export function App({ queryClient, router }: { queryClient: QueryClient; router: ReturnType<typeof createBrowserRouter> }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        {/* What a screen failed on is said once, by the root's onCaughtError (start-app.tsx). */}
        <RouterProvider router={router} onError={() => {}} />
      </ToastProvider>
    </QueryClientProvider>
  );
}
