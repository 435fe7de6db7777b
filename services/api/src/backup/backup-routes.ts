import { pipeline } from 'node:stream/promises';
import { publishUiEvent, TaskService, type RestoreResult, type StoredBackup } from '@reelstat/core';
import {
  backupFileParams,
  backupSettings,
  backupFilesAnswer,
  backupTablesAnswer,
  messageAnswer,
  restoreAnswer,
  setExcludedBackupTableBody,
  uploadAnswer,
  type RestoreProgressEvent,
} from '@reelstat/contract';
import { route } from '../http/api-routes.js';
import { receiveUpload } from './backup-upload.js';

const asFile = (file: StoredBackup) => ({ name: file.name, datecreated: file.createdAt.toISOString(), size: file.size });

const describe = (summary: RestoreResult) => {
  if (summary.kind === 'reelstat') {
    const rows = Object.values(summary.tables).reduce((a, b) => a + b, 0);
    return `Restore complete: ${rows} rows in ${Object.keys(summary.tables).length} tables`;
  }
  const plays = (summary.imported.plays ?? 0) + (summary.imported['plugin plays'] ?? 0);
  const skipped = Object.values(summary.skipped).reduce((a, b) => a + b, 0);
  return `Jellystat import complete: ${plays} plays, ${summary.imported.items ?? 0} items, ${summary.imported.users ?? 0} users imported; ${skipped} rows skipped`;
};

export const backupRoutes = [
  route({
    method: 'get',
    path: '/backup/settings',
    tag: 'backup',
    summary: 'Backup settings: how many backups the BackupTask keeps',
    access: 'admin',
    response: backupSettings,
    handle: async ({ runtime }) => ({ retention: await runtime.services.settings.get('BACKUP_RETENTION') }),
  }),
  route({
    method: 'post',
    path: '/backup/settings',
    tag: 'backup',
    summary: 'Set how many backups the BackupTask keeps (1-1000)',
    access: 'admin',
    body: backupSettings,
    response: backupSettings,
    handle: async ({ body, runtime }) => {
      await runtime.services.settings.set('BACKUP_RETENTION', body.retention);
      return { retention: body.retention };
    },
  }),
  route({
    method: 'get',
    path: '/backup/beginBackup',
    tag: 'backup',
    summary: 'Start the BackupTask (409 when it is already running)',
    access: 'admin',
    response: messageAnswer,
    handle: async ({ runtime }) => new TaskService(runtime).start('BackupTask', 'Manual'),
  }),
  route({
    method: 'get',
    path: '/api/getBackupTables',
    tag: 'backup',
    summary: 'Tables that can be left out of backups, and whether they are',
    access: 'admin',
    response: backupTablesAnswer,
    handle: async ({ runtime }) => runtime.services.backups.tables(),
  }),
  route({
    method: 'post',
    path: '/api/setExcludedBackupTable',
    tag: 'backup',
    summary: 'Flip a table between included in and excluded from backups; answers the updated list',
    access: 'admin',
    body: setExcludedBackupTableBody,
    response: backupTablesAnswer,
    handle: async ({ body, runtime }) => runtime.services.backups.toggleExcluded(body.table),
  }),
  route({
    method: 'get',
    path: '/backup/files',
    tag: 'backup',
    summary: 'Backup files, newest first',
    access: 'admin',
    response: backupFilesAnswer,
    handle: async ({ runtime }) => (await runtime.services.backups.files()).map(asFile),
  }),
  route({
    method: 'get',
    path: '/backup/files/:name',
    tag: 'backup',
    summary: 'Download a backup file (streamed)',
    access: 'admin',
    params: backupFileParams,
    handle: async ({ params, runtime, res }) => {
      const { file, stream } = await runtime.services.backups.download(params.name);
      res.status(200);
      res.setHeader('content-type', file.name.endsWith('.gz') ? 'application/gzip' : 'application/json');
      res.setHeader('content-length', String(file.size));
      res.setHeader('content-disposition', `attachment; filename="${file.name}"`);
      await pipeline(stream, res);
    },
  }),
  route({
    method: 'delete',
    path: '/backup/files/:name',
    tag: 'backup',
    summary: 'Delete a backup file',
    access: 'admin',
    params: backupFileParams,
    response: messageAnswer,
    handle: async ({ params, runtime }) => {
      await runtime.services.backups.remove(params.name);
      return { message: `Backup ${params.name} deleted` };
    },
  }),
  route({
    method: 'get',
    path: '/backup/restore/:name',
    tag: 'backup',
    summary:
      'Restore a Reelstat backup (all or nothing) or import a Jellystat backup; 400 when the file is bad (nothing changed), 409 while another restore runs',
    access: 'admin',
    params: backupFileParams,
    response: restoreAnswer,
    handle: async ({ params, runtime }) => {
      let last = 0;
      const progress = (event: RestoreProgressEvent) => void publishUiEvent(runtime.bus, 'backup-restore', event).catch(() => undefined);
      try {
        const summary = await runtime.services.backups.restore(params.name, {
          onProgress: (percent, message) => {
            if (Date.now() - last < 500) return;
            last = Date.now();
            progress({ state: 'running', name: params.name, progress: Math.round(percent), message });
          },
        });
        const message = describe(summary);
        progress({ state: 'done', name: params.name, progress: 100, message });
        return { message, summary };
      } catch (error) {
        progress({ state: 'failed', name: params.name, progress: 0, message: (error as Error).message });
        throw error;
      }
    },
  }),
  route({
    method: 'post',
    path: '/backup/upload',
    tag: 'backup',
    summary: 'Upload a backup file (multipart, field "file"; .json or .json.gz; Reelstat or Jellystat). 413 above BACKUP_UPLOAD_MAX_MB',
    access: 'admin',
    status: 201,
    response: uploadAnswer,
    handle: async ({ req, runtime }) => {
      const upload = await receiveUpload(req, runtime.config.backup.uploadMaxBytes);
      const file = await runtime.services.backups.acceptUpload(upload.fileName, upload.tempFile);
      return { message: 'Upload complete!', file: asFile(file) };
    },
  }),
];
