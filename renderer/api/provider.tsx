/**
 * Makes the transport and the API client available to every component. Passing them in
 * (instead of importing a module-level singleton) lets a test mount views on a fake.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from './client.js';
import type { Transport } from './transport.js';

interface Api {
  transport: Transport;
  client: ApiClient;
}

const ApiContext = createContext<Api | null>(null);

export function ApiProvider({ transport, children }: { transport: Transport; children: ReactNode }) {
  const api = useMemo(() => ({ transport, client: createApiClient(transport) }), [transport]);
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi must be used inside <ApiProvider>.');
  return api;
}
