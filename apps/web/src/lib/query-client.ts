import { QueryClient } from '@tanstack/react-query';
import { ApiClientError } from './api-client-error';

/** Retry once when Otto could not be reached; an answer (404, 400…) is final. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  const unreachable = error instanceof ApiClientError && (error.kind === 'FETCH_ERROR' || error.kind === 'TIMEOUT_ERROR');
  return unreachable && failureCount < 1;
}

/** The app's query cache with the spec's settings (section 9). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: 60_000,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // The backend lives in the browser: being offline must not pause it.
        networkMode: 'always',
        retry: shouldRetry,
      },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}
