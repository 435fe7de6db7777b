import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { RestoreProgressEvent } from '@reelstat/contract';
import {
  deleteBackup,
  downloadBackup,
  restoreBackup,
  toggleBackupTable,
  uploadBackup,
  useBackupFiles,
  useBackupTables,
} from '../../api/backup';
import { errorMessage } from '../../api/client';
import { Panel } from '../../components/Panel';
import { Pager } from '../../components/inputs';
import { formatDateTime, formatSize } from '../../lib/format';
import { useSocketEvent } from '../../socket/socket';
import { STORAGE, usePreference } from '../../store/preferences';
import { BackupRetention } from './BackupRetention';

const PAGE = 10;

type Alert = { ok: boolean; text: string } | null;

function AlertBox({ alert, onClose }: { alert: Alert; onClose: () => void }) {
  const { t } = useTranslation();
  if (!alert) return null;
  return (
    <div
      role={alert.ok ? 'status' : 'alert'}
      className={`flex items-start justify-between gap-2 rounded-md px-3 py-2 text-sm ${alert.ok ? 'bg-emerald-950 text-emerald-300' : 'bg-red-950 text-red-300'}`}
    >
      <span>{alert.text}</span>
      <button type="button" aria-label={t('common.close')} onClick={onClose}>
        ×
      </button>
    </div>
  );
}

function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
      className="h-2 w-full rounded bg-gray-800"
    >
      <div className="h-2 rounded bg-blue-500 transition-all" style={{ width: `${percent}%` }} />
    </div>
  );
}

function BackupTables() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tables = useBackupTables();
  const [busy, setBusy] = useState(false);
  async function toggle(value: string) {
    setBusy(true);
    try {
      queryClient.setQueryData(['backup-tables'], await toggleBackupTable(value));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card space-y-3">
      <h2 className="text-lg font-semibold">{t('settings.backup.tables')}</h2>
      <p className="text-sm text-gray-400">{t('settings.backup.tablesHelp')}</p>
      <Panel isLoading={tables.isLoading} error={tables.error} isEmpty={false}>
        <div className="flex flex-wrap gap-2" data-testid="backup-tables">
          {(tables.data ?? []).map((table) => (
            <button
              key={table.value}
              type="button"
              disabled={busy}
              aria-pressed={table.Excluded}
              title={table.Excluded ? t('settings.backup.excluded') : t('settings.backup.included')}
              className={table.Excluded ? 'btn-danger' : 'btn-secondary'}
              onClick={() => void toggle(table.value)}
            >
              {table.name}
            </button>
          ))}
        </div>
      </Panel>
    </section>
  );
}

function Upload({ onAlert }: { onAlert: (alert: Alert) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.name.toLowerCase().endsWith('.json')) {
      onAlert({ ok: false, text: t('settings.backup.onlyJson') });
      return;
    }
    setProgress(0);
    try {
      const answer = await uploadBackup(file, setProgress);
      onAlert({ ok: true, text: answer.message });
      await queryClient.invalidateQueries({ queryKey: ['backup-files'] });
    } catch (error) {
      onAlert({ ok: false, text: errorMessage(error) });
    } finally {
      setProgress(null);
    }
  }
  return (
    <div className="space-y-2">
      <label htmlFor="backup-upload" className="label">
        {t('settings.backup.upload')}
      </label>
      <input
        id="backup-upload"
        ref={input}
        type="file"
        accept=".json,application/json"
        disabled={progress !== null}
        onChange={(e) => void choose(e)}
        className="block text-sm text-gray-300 file:mr-3 file:rounded-md file:border-0 file:bg-gray-700 file:px-3 file:py-1.5 file:text-gray-100"
      />
      {progress !== null && <ProgressBar percent={progress} label={t('settings.backup.uploading')} />}
    </div>
  );
}

export function Backup() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const files = useBackupFiles();
  const [hour12] = usePreference(STORAGE.hour12, false);
  const [page, setPage] = useState(1);
  const [alert, setAlert] = useState<Alert>(null);
  const [busy, setBusy] = useState(false);
  const [menu, setMenu] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [restore, setRestore] = useState<{ name: string; percent: number; message: string } | null>(null);
  useSocketEvent<RestoreProgressEvent>('backup-restore', (event) => {
    if (event.state === 'running')
      setRestore((current) => (current?.name === event.name ? { ...current, percent: event.progress, message: event.message } : current));
  });
  const list = files.data ?? [];
  const pages = Math.max(1, Math.ceil(list.length / PAGE));
  const current = Math.min(page, pages);

  async function act(work: () => Promise<string | undefined>) {
    setBusy(true);
    setMenu(null);
    try {
      const text = await work();
      if (text) setAlert({ ok: true, text });
      await queryClient.invalidateQueries({ queryKey: ['backup-files'] });
    } catch (error) {
      setAlert({ ok: false, text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }
  const runRestore = (name: string) =>
    act(async () => {
      setConfirming(null);
      setRestore({ name, percent: 0, message: t('settings.backup.restoring') });
      try {
        return (await restoreBackup(name)).message;
      } finally {
        setRestore(null);
        await queryClient.invalidateQueries();
      }
    });

  return (
    <div className="space-y-4">
      <BackupTables />
      <BackupRetention />
      <section className="card space-y-3">
        <h2 className="text-lg font-semibold">{t('settings.backup.files')}</h2>
        <Upload onAlert={setAlert} />
        <AlertBox alert={alert} onClose={() => setAlert(null)} />
        {confirming && (
          <div
            role="dialog"
            aria-label={t('settings.backup.confirmTitle')}
            className="rounded-md border border-amber-700 bg-amber-950 p-3 text-sm text-amber-200"
          >
            <p className="mb-2">{t('settings.backup.confirm', { name: confirming })}</p>
            <div className="flex gap-2">
              <button type="button" className="btn-warning" onClick={() => void runRestore(confirming)}>
                {t('settings.backup.restore')}
              </button>
              <button type="button" className="btn-secondary" onClick={() => setConfirming(null)}>
                {t('common.cancel')}
              </button>
            </div>
          </div>
        )}
        {restore && (
          <div className="space-y-1" data-testid="restore-progress">
            <p className="text-sm text-gray-300">
              {restore.message} ({restore.percent}%)
            </p>
            <ProgressBar percent={restore.percent} label={t('settings.backup.restoring')} />
          </div>
        )}
        <Panel isLoading={files.isLoading} error={files.error} isEmpty={list.length === 0} empty="settings.backup.empty">
          {/* No overflow clipping here: the actions menu opens below its row. */}
          <div className="rounded-lg border border-gray-800">
            <table className="table" data-testid="backup-files">
              <thead>
                <tr>
                  <th>{t('settings.backup.name')}</th>
                  <th>{t('settings.backup.date')}</th>
                  <th>{t('settings.backup.size')}</th>
                  <th>
                    <span className="sr-only">{t('settings.backup.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.slice((current - 1) * PAGE, current * PAGE).map((file) => (
                  <tr key={file.name}>
                    <td className="break-all">{file.name}</td>
                    <td className="whitespace-nowrap">{formatDateTime(file.datecreated, hour12)}</td>
                    <td className="whitespace-nowrap">{formatSize(file.size)}</td>
                    <td className="relative text-right">
                      <button
                        type="button"
                        className="btn-secondary px-2 py-1"
                        disabled={busy}
                        aria-haspopup="menu"
                        aria-expanded={menu === file.name}
                        aria-label={t('settings.backup.actionsFor', { name: file.name })}
                        onClick={() => setMenu(menu === file.name ? null : file.name)}
                      >
                        ⋯
                      </button>
                      {menu === file.name && (
                        <div
                          role="menu"
                          className="absolute right-0 z-10 mt-1 flex w-40 flex-col rounded-md border border-gray-700 bg-gray-900 py-1 text-left shadow-lg"
                        >
                          <button
                            type="button"
                            role="menuitem"
                            className="px-3 py-1.5 text-left hover:bg-gray-800"
                            onClick={() => void act(async () => (await downloadBackup(file.name), undefined))}
                          >
                            {t('settings.backup.download')}
                          </button>
                          <button
                            type="button"
                            role="menuitem"
                            className="px-3 py-1.5 text-left hover:bg-gray-800"
                            onClick={() => {
                              setMenu(null);
                              setConfirming(file.name);
                            }}
                          >
                            {t('settings.backup.restore')}
                          </button>
                          <button
                            type="button"
                            role="menuitem"
                            className="px-3 py-1.5 text-left text-red-300 hover:bg-gray-800"
                            onClick={() => void act(async () => (await deleteBackup(file.name)).message)}
                          >
                            {t('common.delete')}
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="mt-3 flex justify-end">
            <Pager page={current} pages={pages} onPage={setPage} />
          </div>
        </Panel>
      </section>
    </div>
  );
}
