import { useQuery } from '@tanstack/react-query';
import type { ConfigAnswer, SetupStateAnswer, UpdateInfoAnswer } from '@reelstat/contract';
import { api } from './client';
import { hashPassword } from '../lib/hash';

const FIVE_MINUTES = 5 * 60_000;

export function useSetupState() {
  return useQuery({
    queryKey: ['auth', 'isConfigured'],
    queryFn: () => api<SetupStateAnswer>('/auth/isConfigured', { anonymous: true }),
    retry: 1,
  });
}

export function useConfig(enabled = true) {
  return useQuery({
    queryKey: ['config'],
    queryFn: () => api<ConfigAnswer>('/api/getconfig'),
    enabled,
    retry: false,
    staleTime: FIVE_MINUTES,
  });
}

export function useUpdateInfo() {
  return useQuery({
    queryKey: ['update-info'],
    queryFn: () => api<UpdateInfoAnswer>('/api/CheckForUpdates'),
    refetchInterval: FIVE_MINUTES,
    staleTime: FIVE_MINUTES,
  });
}

export function login(username: string, password: string) {
  return api<{ token: string }>('/auth/login', { method: 'POST', body: { username, password: hashPassword(password) }, anonymous: true });
}

export function createUser(username: string, password: string) {
  return api<{ token: string }>('/auth/createuser', {
    method: 'POST',
    body: { username, password: hashPassword(password) },
    anonymous: true,
  });
}

export function configSetup(JF_HOST: string, JF_API_KEY: string) {
  return api<{ message: string }>('/auth/configSetup/', { method: 'POST', body: { JF_HOST, JF_API_KEY } });
}
