import { useQuery } from '@tanstack/react-query';
import type { BackupFileAnswer, BackupTableAnswer, RestoreAnswer } from '@reelstat/contract';
import { api, apiUrl, authHeaders, ApiError } from './client';

const FIVE_MINUTES = 5 * 60_000;

export function useBackupFiles() {
  return useQuery({ queryKey: ['backup-files'], queryFn: () => api<BackupFileAnswer[]>('/backup/files'), refetchInterval: FIVE_MINUTES });
}
export function useBackupTables() {
  return useQuery({
    queryKey: ['backup-tables'],
    queryFn: () => api<BackupTableAnswer[]>('/api/getBackupTables'),
    refetchInterval: FIVE_MINUTES,
  });
}
export function useBackupSettings() {
  return useQuery({ queryKey: ['backup-settings'], queryFn: () => api<{ retention: number }>('/backup/settings') });
}
export const setBackupRetention = (retention: number) =>
  api<{ retention: number }>('/backup/settings', { method: 'POST', body: { retention } });
export const toggleBackupTable = (table: string) =>
  api<BackupTableAnswer[]>('/api/setExcludedBackupTable', { method: 'POST', body: { table } });
export const deleteBackup = (name: string) => api<{ message: string }>(`/backup/files/${encodeURIComponent(name)}`, { method: 'DELETE' });
export const restoreBackup = (name: string) => api<RestoreAnswer>(`/backup/restore/${encodeURIComponent(name)}`);

/** Downloads through fetch (the token is a header, not a cookie), then hands the blob to the browser. */
export async function downloadBackup(name: string): Promise<void> {
  const response = await fetch(apiUrl(`/backup/files/${encodeURIComponent(name)}`), { headers: authHeaders() });
  if (!response.ok) throw new ApiError(response.status, `Error : ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Multipart upload (field `file`) with progress: fetch cannot report upload progress, XMLHttpRequest can. */
export function uploadBackup(file: File, onProgress: (percent: number) => void): Promise<{ message: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', apiUrl('/backup/upload'));
    for (const [key, value] of Object.entries(authHeaders())) request.setRequestHeader(key, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      let body: { message?: string } = {};
      try {
        body = JSON.parse(request.responseText) as { message?: string };
      } catch {
        // not JSON
      }
      if (request.status >= 200 && request.status < 300) resolve({ message: body.message ?? 'Upload complete!' });
      else reject(new ApiError(request.status, body.message ?? `Error : ${request.status}`));
    };
    request.onerror = () => reject(new ApiError(0, 'Network error'));
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}
