import { useQuery } from '@tanstack/react-query';
import type { ActivityMonitorSettingsBody, AdminUser, SignInSettings, UpdateCredentialsAnswer } from '@reelstat/contract';
import { api } from './client';
import type { ActivityMonitorSettings, Task } from './types';
import { hashPassword } from '../lib/hash';

export function useAdminUsers() {
  return useQuery({ queryKey: ['admin-users'], queryFn: () => api<AdminUser[]>('/proxy/getAdminUsers') });
}

export const setConfig = (JF_HOST: string, JF_API_KEY: string) =>
  api<{ message: string }>('/api/setconfig/', { method: 'POST', body: { JF_HOST, JF_API_KEY } });
export const setExternalUrl = (ExternalUrl: string) => api('/api/setExternalUrl/', { method: 'POST', body: { ExternalUrl } });
export const setPreferredAdmin = (userid: string, username: string) =>
  api('/api/setPreferredAdmin/', { method: 'POST', body: { userid, username } });
export const setRequireLogin = (REQUIRE_LOGIN: boolean) => api('/api/setRequireLogin', { method: 'POST', body: { REQUIRE_LOGIN } });

export function updateCredentials(username: string, currentPassword: string, newPassword: string) {
  return api<UpdateCredentialsAnswer>('/api/updateCredentials', {
    method: 'POST',
    body: {
      username,
      current_password: currentPassword ? hashPassword(currentPassword) : '',
      new_password: newPassword ? hashPassword(newPassword) : '',
    },
  });
}

/** The tasks with their intervals (name, type, running, Interval); live changes arrive as 'task-list' events. */
export function useTaskSettings() {
  return useQuery({ queryKey: ['task-settings'], queryFn: () => api<Task[]>('/api/getTaskSettings') });
}
export const setTaskSettings = (taskname: string, Interval: number) =>
  api('/api/setTaskSettings', { method: 'POST', body: { taskname, Interval } });

/** Start endpoints per task name (SPEC.md §7). */
export const TASK_START: Record<string, string> = {
  PartialSyncTask: '/sync/beginPartialSync',
  FullSyncTask: '/sync/beginSync',
  PlaybackSyncTask: '/sync/syncPlaybackPluginData',
  BackupTask: '/backup/beginBackup',
};
export const startTask = (name: string) => api(TASK_START[name] ?? `/sync/${name}`);
export const stopTask = (name: string) => api('/api/stopTask', { query: { task: name } });
export const beginFullSync = () => api('/sync/beginSync');

export function useMonitorSettings() {
  return useQuery({ queryKey: ['activity-monitor'], queryFn: () => api<ActivityMonitorSettings>('/api/getActivityMonitorSettings') });
}
export const setMonitorSettings = (settings: ActivityMonitorSettingsBody) =>
  api<ActivityMonitorSettings & { message: string }>('/api/setActivityMonitorSettings', { method: 'POST', body: settings });

/** Who may sign in with a media-server account, and whether viewers see the server-wide cards (administrators). */
export function useSignInSettings() {
  return useQuery({ queryKey: ['sign-in-settings'], queryFn: () => api<SignInSettings>('/api/signInSettings') });
}
export const saveSignInSettings = (settings: SignInSettings) =>
  api<SignInSettings>('/api/signInSettings', { method: 'POST', body: settings });
