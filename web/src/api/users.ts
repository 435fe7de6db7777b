import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { UserDetails } from './types';

export function useUntrackedUsers() {
  return useQuery({ queryKey: ['untracked-users'], queryFn: () => api<string[]>('/api/UntrackedUsers') });
}
/** serverId: the user's server when the list shows every server's users ("All servers"). */
export const setUntrackedUser = (userId: string, serverId?: string) =>
  api<string[]>('/api/setUntrackedUsers', { method: 'POST', body: { userId }, ...(serverId ? { query: { serverId } } : {}) });

export function useUserDetails(userid: string) {
  return useQuery({
    queryKey: ['user', userid],
    queryFn: async () => {
      const answer = await api<UserDetails | UserDetails[]>('/api/getUserDetails', { method: 'POST', body: { userid } });
      return Array.isArray(answer) ? (answer[0] ?? null) : answer;
    },
  });
}
