import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { ReactElement } from 'react';
import '../i18n';

/** Renders with the app's providers: react-query (no retries), a memory router and i18n (en-UK). */
export function renderWithProviders(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/** A fetch that answers JSON per path; unknown paths get 404 with the server's error shape. */
export function fakeFetch(routes: Record<string, unknown>) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body = key in routes ? routes[key] : url.pathname in routes ? routes[url.pathname] : undefined;
    if (body === undefined)
      return new Response(JSON.stringify({ status: 404, code: 'not_found', message: `No route for ${key}` }), { status: 404 });
    const value = typeof body === 'function' ? (body as (init?: RequestInit) => unknown)(init) : body;
    return new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}
