import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import type {
  GenreStat,
  GlobalStats,
  Item,
  LastPlayed,
  LibraryCardStats,
  LibraryMetadata,
  LibraryOverview,
  StatItem,
  UserActivityRow,
  ViewsOverTime,
} from './types';

const FIVE_MINUTES = 5 * 60_000;
const window = { refetchInterval: FIVE_MINUTES, staleTime: 60_000, placeholderData: keepPreviousData } as const;

export type MediaType = 'Movie' | 'Series' | 'Audio';

export function useMostViewedByType(days: number, type: MediaType) {
  return useQuery({
    queryKey: ['stats', 'most-viewed', type, days],
    queryFn: () => api<StatItem[]>('/stats/getMostViewedByType', { method: 'POST', body: { days, type } }),
    ...window,
  });
}
export function useMostPopularByType(days: number, type: MediaType) {
  return useQuery({
    queryKey: ['stats', 'most-popular', type, days],
    queryFn: () => api<StatItem[]>('/stats/getMostPopularByType', { method: 'POST', body: { days, type } }),
    ...window,
  });
}
export function useMostViewedLibraries(days: number) {
  return useQuery({
    queryKey: ['stats', 'libraries', days],
    queryFn: () => api<StatItem[]>('/stats/getMostViewedLibraries', { method: 'POST', body: { days } }),
    ...window,
  });
}
export function useMostUsedClient(days: number) {
  return useQuery({
    queryKey: ['stats', 'clients', days],
    queryFn: () => api<StatItem[]>('/stats/getMostUsedClient', { method: 'POST', body: { days } }),
    ...window,
  });
}
export function useMostActiveUsers(days: number, enabled = true) {
  return useQuery({
    queryKey: ['stats', 'users', days],
    queryFn: () => api<StatItem[]>('/stats/getMostActiveUsers', { method: 'POST', body: { days } }),
    enabled,
    ...window,
  });
}
export function usePlaybackMethodStats(days: number) {
  return useQuery({
    queryKey: ['stats', 'play-methods', days],
    queryFn: () => api<StatItem[]>('/stats/getPlaybackMethodStats', { method: 'POST', body: { days } }),
    ...window,
  });
}

export function useLibraryOverview() {
  return useQuery({
    queryKey: ['stats', 'library-overview'],
    queryFn: () => api<LibraryOverview[]>('/stats/getLibraryOverview'),
    ...window,
  });
}
export function useLibraryMetadata() {
  return useQuery({
    queryKey: ['stats', 'library-metadata'],
    queryFn: () => api<LibraryMetadata[]>('/stats/getLibraryMetadata'),
    ...window,
  });
}
export function useLibraryCardStats() {
  return useQuery({
    queryKey: ['stats', 'library-cards'],
    queryFn: () => api<LibraryCardStats[]>('/stats/getLibraryCardStats'),
    refetchInterval: 60 * 60_000,
  });
}

export function useAllUserActivity(enabled = true) {
  return useQuery({
    queryKey: ['stats', 'all-user-activity'],
    queryFn: () => api<UserActivityRow[]>('/stats/getAllUserActivity'),
    enabled,
    refetchInterval: 60_000,
  });
}

export function useUserLastPlayed(userid: string) {
  return useQuery({
    queryKey: ['stats', 'user-last-played', userid],
    queryFn: () => api<LastPlayed[]>('/stats/getUserLastPlayed', { method: 'POST', body: { userid } }),
  });
}
export function useLibraryLastPlayed(libraryid: string, enabled = true) {
  return useQuery({
    queryKey: ['stats', 'library-last-played', libraryid],
    queryFn: () => api<LastPlayed[]>('/stats/getLibraryLastPlayed', { method: 'POST', body: { libraryid } }),
    enabled,
  });
}

export type GlobalStatsScope = { userid: string } | { libraryid: string } | { itemid: string };
const GLOBAL_PATHS = {
  userid: '/stats/getGlobalUserStats',
  libraryid: '/stats/getGlobalLibraryStats',
  itemid: '/stats/getGlobalItemStats',
};

/** One global-stats figure for a period of days (hours = 24 × days). */
export function useGlobalStats(scope: GlobalStatsScope, days: number) {
  const key = Object.keys(scope)[0] as keyof typeof GLOBAL_PATHS;
  return useQuery({
    queryKey: ['stats', 'global', scope, days],
    queryFn: () => api<GlobalStats>(GLOBAL_PATHS[key], { method: 'POST', body: { ...scope, hours: days * 24 } }),
  });
}

export function useGenreUserStats(userid: string) {
  return useQuery({
    queryKey: ['stats', 'genre-user', userid],
    queryFn: () => api<{ results: GenreStat[] }>('/stats/getGenreUserStats', { query: { userid } }),
  });
}
export function useGenreLibraryStats(libraryid: string, enabled = true) {
  return useQuery({
    queryKey: ['stats', 'genre-library', libraryid],
    queryFn: () => api<{ results: GenreStat[] }>('/stats/getGenreLibraryStats', { query: { libraryid } }),
    enabled,
  });
}

export function useLibraryItemsWithStats(libraryid: string) {
  return useQuery({
    queryKey: ['stats', 'library-items', libraryid],
    queryFn: () => api<Item[]>('/stats/getLibraryItemsWithStats', { method: 'POST', body: { libraryid } }),
  });
}

export type ViewsChart = 'getViewsOverTime' | 'getViewsByDays' | 'getViewsByHour';
export function useViews(chart: ViewsChart, days: number) {
  return useQuery({
    queryKey: ['stats', chart, days],
    queryFn: () => api<ViewsOverTime>(`/stats/${chart}`, { query: { days } }),
    ...window,
  });
}
