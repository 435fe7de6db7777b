import { useQuery } from '@tanstack/react-query';
import type { AddMediaServerBody, EditMediaServerBody, MediaServerAnswer, TestMediaServerAnswer } from '@reelstat/contract';
import { api } from './client';

export type MediaServer = MediaServerAnswer;

export const MEDIA_SERVERS_KEY = ['media-servers'] as const;

/** The linked media servers, the default one first. */
export function useMediaServers() {
  return useQuery({ queryKey: MEDIA_SERVERS_KEY, queryFn: () => api<MediaServer[]>('/api/mediaServers'), staleTime: 30_000 });
}

export const addMediaServer = (body: AddMediaServerBody) =>
  api<{ message: string; server: MediaServer }>('/api/mediaServers', { method: 'POST', body });
export const editMediaServer = (id: string, body: EditMediaServerBody) =>
  api<{ message: string; server: MediaServer }>(`/api/mediaServers/${id}`, { method: 'PUT', body });
export const removeMediaServer = (id: string) => api<{ message: string }>(`/api/mediaServers/${id}`, { method: 'DELETE' });
export const testMediaServer = (Url: string, ApiKey: string) =>
  api<TestMediaServerAnswer>('/api/mediaServers/test', { method: 'POST', body: { Url, ApiKey } });
export const testLinkedMediaServer = (id: string) => api<TestMediaServerAnswer>(`/api/mediaServers/${id}/test`, { method: 'POST' });
