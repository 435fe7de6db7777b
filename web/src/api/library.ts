import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { Item, Library, RecentlyAdded, TrackedLibrary } from './types';

const HOURLY = 60 * 60_000;

export function useLibraries() {
  return useQuery({
    queryKey: ['libraries'],
    queryFn: () => api<Array<{ Id: string; Name: string; archived?: boolean; CollectionType?: string | null }>>('/api/getLibraries'),
    refetchInterval: HOURLY,
  });
}

export function useTrackedLibraries() {
  return useQuery({
    queryKey: ['tracked-libraries'],
    queryFn: () => api<TrackedLibrary[]>('/api/TrackedLibraries'),
    refetchInterval: HOURLY,
  });
}
export const setExcludedLibrary = (libraryID: string) => api('/api/setExcludedLibraries', { method: 'POST', body: { libraryID } });

export function useRecentlyAdded(group: boolean, libraryid: string | null) {
  return useQuery({
    queryKey: ['recently-added', group, libraryid],
    queryFn: () => api<RecentlyAdded[]>('/api/getRecentlyAdded', { query: { GroupResults: group, libraryid: libraryid ?? undefined } }),
    refetchInterval: 5 * 60_000,
  });
}

export function useLibrary(libraryid: string) {
  return useQuery({
    queryKey: ['library', libraryid],
    queryFn: async () => {
      const answer = await api<Library | Library[]>('/api/getLibrary', { method: 'POST', body: { libraryid } });
      return Array.isArray(answer) ? (answer[0] ?? null) : answer;
    },
  });
}

/** The first element of the returned array is the item (SPEC.md §7). */
export function useItemDetails(Id: string) {
  return useQuery({
    queryKey: ['item', Id],
    queryFn: async () => {
      const answer = await api<Item[] | Item>('/api/getItemDetails', { method: 'POST', body: { Id } });
      return Array.isArray(answer) ? (answer[0] ?? null) : answer;
    },
    retry: false,
  });
}
export function useSeasons(Id: string, enabled: boolean) {
  return useQuery({ queryKey: ['seasons', Id], queryFn: () => api<Item[]>('/api/getSeasons', { method: 'POST', body: { Id } }), enabled });
}
export function useEpisodes(Id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['episodes', Id],
    queryFn: () => api<Item[]>('/api/getEpisodes', { method: 'POST', body: { Id } }),
    enabled,
  });
}
export const fetchItem = (itemId: string) => api('/sync/fetchItem', { method: 'POST', body: { itemId } });

export type PurgeTarget = 'library' | 'libraryItems' | 'item';
export const purge = (target: PurgeTarget, id: string, withActivity: boolean) =>
  api(`/api/${target}/purge`, { method: 'DELETE', body: { id, withActivity } });
