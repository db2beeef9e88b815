/**
 * Renderer entry: picks the transport for the host it runs in, then mounts the app with the
 * API client and React Query around it.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from './api/query-client.js';
import { ApiProvider } from './api/provider.js';
import { withScenario } from './api/scenario-transport.js';
import { chooseTransport } from './api/transport.js';
import { App } from './App.js';
import { useScenarioStore } from './state/scenario.js';
import { undoManager } from './state/undo.js';
import './styles/theme.css';
import './styles/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

const transport = withScenario(chooseTransport(), {
  current: () => useScenarioStore.getState().current?.id ?? null,
  subscribe: (listener) =>
    useScenarioStore.subscribe((state, before) => {
      if (state.current?.id === before.current?.id) return;
      // What could be undone was done in the plan the planner just left.
      undoManager.clear();
      listener();
    }),
});
const queryClient = createQueryClient();

createRoot(container).render(
  <StrictMode>
    <ApiProvider transport={transport}>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </ApiProvider>
  </StrictMode>,
);
