/**
 * React Query defaults for a local API. Change events invalidate what changed, so data does
 * not need to be refetched on a timer; a short stale time only avoids refetching twice when
 * several components mount the same list.
 */
import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './request-error.js';

const maxRetries = 2;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will answer the same way again; only failures of the host or a 5xx are worth
        // another try.
        retry: (failureCount, error) => !(error instanceof ApiRequestError && error.status < 500) && failureCount < maxRetries,
      },
    },
  });
}
