/**
 * The floor view's entry (docs/architecture.md "Renderer"): the same React, React Query,
 * theme and labels as the planner's app, on a transport of its own (floor-transport.ts).
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from '../api/query-client.js';
import { FloorApp } from './FloorApp.js';
import '../styles/theme.css';
import './floor.css';

const container = document.getElementById('root');
if (!container) throw new Error('floor/index.html has no #root element.');

// Installable, and opens without a connection once seen online (public/floor/sw.js). The page
// goes network first, so a new build (or the development server's files) shows at once online.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker
    .register('./sw.js', { scope: './' })
    .catch((error: unknown) => console.warn('The floor view works online only:', error));
}

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <FloorApp />
    </QueryClientProvider>
  </StrictMode>,
);
