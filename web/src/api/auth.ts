import { useQuery } from '@tanstack/react-query';
import type { ConfigAnswer, MeAnswer, SetupStateAnswer, SignInAnswer, SignInMethodsAnswer, UpdateInfoAnswer } from '@reelstat/contract';
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

/** Who the stored token (or require-login off) belongs to: an admin gets the dashboard, a viewer their own pages. */
export function useMe(enabled = true) {
  return useQuery({ queryKey: ['auth', 'me'], queryFn: () => api<MeAnswer>('/auth/me'), enabled, retry: false, staleTime: FIVE_MINUTES });
}

export function useSignInMethods() {
  return useQuery({
    queryKey: ['auth', 'signInMethods'],
    queryFn: () => api<SignInMethodsAnswer>('/auth/signInMethods', { anonymous: true }),
    retry: 1,
  });
}

/** The media server's own password, as typed: the server passes it on to Jellyfin or Emby and keeps nothing. */
export function mediaServerLogin(username: string, password: string) {
  return api<SignInAnswer>('/auth/mediaServerLogin', { method: 'POST', body: { username, password }, anonymous: true });
}
