import { useQuery } from '@tanstack/react-query';
import type { ApiKeyListing, CreatedApiKey } from '@reelstat/contract';
import { api } from './client';

export function useApiKeys() {
  return useQuery({ queryKey: ['api-keys'], queryFn: () => api<ApiKeyListing[]>('/api/keys'), refetchInterval: 5000 });
}
export const createApiKey = (name: string) => api<CreatedApiKey>('/api/keys/', { method: 'POST', body: { name } });
/** The listing is masked, so rows are deleted by id (the server also accepts the full key, SPEC.md's {key}). */
export const deleteApiKey = (target: { key: string } | { id: number }) =>
  api<{ message?: string }>('/api/keys', { method: 'DELETE', body: target });
