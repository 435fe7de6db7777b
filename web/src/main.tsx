import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from './App';
import './i18n';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Once for a network failure, and once after a remembered media server turned out unknown (the client
      // has gone back to the default server).
      retry: (count, error) =>
        count < 1 && (!(error as { status?: number }).status || (error as { code?: string }).code === 'media_server_not_found'),
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});

document.documentElement.classList.add('dark');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
