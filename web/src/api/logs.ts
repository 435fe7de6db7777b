import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { LogEntry } from './types';

export function useLogs() {
  return useQuery({ queryKey: ['logs'], queryFn: () => api<LogEntry[]>('/logs/getLogs'), refetchInterval: 5000 });
}
