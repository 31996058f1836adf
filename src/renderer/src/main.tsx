import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { installStyleNonce } from './app/style-nonce';
import { startHashSync } from './state/hash-sync';
import './styles.css';

installStyleNonce();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: 1,
      refetchOnWindowFocus: false,
      staleTime: 2_000,
      // Interval refreshes stop while the window is hidden (document.visibilityState).
      refetchIntervalInBackground: false,
    },
  },
});

startHashSync();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}
