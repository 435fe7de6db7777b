import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { Paged, TimelineEntry } from './types';

export type HistoryScope =
  { kind: 'global' } | { kind: 'user'; id: string } | { kind: 'library'; id: string } | { kind: 'item'; id: string };

export interface HistoryQuery {
  page: number;
  size: number;
  search: string;
  sort: string;
  desc: boolean;
  filters: Array<{ field: string; value: unknown }>;
}

/** Server-side paged history for every activity table (SPEC.md §7: query size, page, search, sort, desc, filters). */
export function useHistory(scope: HistoryScope, q: HistoryQuery) {
  const query = {
    size: q.size,
    page: q.page,
    search: q.search || undefined,
    sort: q.sort,
    desc: q.desc,
    filters: JSON.stringify(q.filters),
  };
  return useQuery({
    queryKey: ['history', scope, q],
    placeholderData: keepPreviousData,
    refetchInterval: scope.kind === 'global' ? 60 * 60_000 : false,
    queryFn: () => {
      switch (scope.kind) {
        case 'global':
          return api<Paged>('/api/getHistory', { query });
        case 'user':
          return api<Paged>('/api/getUserHistory', { method: 'POST', query, body: { userid: scope.id } });
        case 'library':
          return api<Paged>('/api/getLibraryHistory', { method: 'POST', query, body: { libraryid: scope.id } });
        case 'item':
          return api<Paged>('/api/getItemHistory', { method: 'POST', query, body: { itemid: scope.id } });
      }
    },
  });
}

export const deletePlaybackActivity = (ids: Array<string | number>) =>
  api('/api/deletePlaybackActivity', { method: 'POST', body: { ids } });

export function useTimeline(userId: string, libraries: string[]) {
  return useQuery({
    queryKey: ['timeline', userId, libraries],
    queryFn: () => api<TimelineEntry[]>('/api/getActivityTimeLine', { method: 'POST', body: { userId, libraries } }),
    enabled: userId !== '' && libraries.length > 0,
  });
}
