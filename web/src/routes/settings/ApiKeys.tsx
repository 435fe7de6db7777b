import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { createApiKey, deleteApiKey, useApiKeys } from '../../api/keys';
import { errorMessage } from '../../api/client';
import { Panel } from '../../components/Panel';
import { Pager } from '../../components/inputs';
import { formatDateTime } from '../../lib/format';
import { STORAGE, usePreference } from '../../store/preferences';

const PAGE = 10;

export function ApiKeys() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const keys = useApiKeys();
  const [hour12] = usePreference(STORAGE.hour12, false);
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const list = keys.data ?? [];
  const pages = Math.max(1, Math.ceil(list.length / PAGE));
  const current = Math.min(page, pages);

  async function add(event: FormEvent) {
    event.preventDefault();
    try {
      const key = await createApiKey(name.trim());
      setCreated(key);
      setName('');
      setAlert({ ok: true, text: t('settings.keys.created', { name: key.name }) });
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    } catch (error) {
      setAlert({ ok: false, text: errorMessage(error) });
    }
  }
  async function remove(id: number) {
    try {
      const answer = await deleteApiKey({ id });
      setAlert({ ok: true, text: answer?.message ?? t('settings.keys.deleted') });
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    } catch (error) {
      setAlert({ ok: false, text: errorMessage(error) });
    }
  }

  return (
    <div className="space-y-4">
      <form onSubmit={add} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="key-name" className="label">
            {t('settings.keys.name')}
          </label>
          <input id="key-name" className="input" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
        </div>
        <button type="submit" className="btn-primary">
          {t('settings.keys.add')}
        </button>
      </form>
      {alert && (
        <div
          role={alert.ok ? 'status' : 'alert'}
          className={`flex items-start justify-between gap-2 rounded-md px-3 py-2 text-sm ${alert.ok ? 'bg-emerald-950 text-emerald-300' : 'bg-red-950 text-red-300'}`}
        >
          <span>{alert.text}</span>
          <button type="button" aria-label={t('common.close')} onClick={() => setAlert(null)}>
            ×
          </button>
        </div>
      )}
      {created && (
        <div className="card border-blue-700 text-sm" data-testid="created-key">
          <p className="mb-1 text-gray-300">{t('settings.keys.showOnce')}</p>
          <code className="break-all text-blue-300">{created.key}</code>
        </div>
      )}
      <Panel isLoading={keys.isLoading} error={keys.error} isEmpty={list.length === 0} empty="settings.keys.empty">
        <div className="overflow-x-auto rounded-lg border border-gray-800">
          <table className="table" data-testid="keys-table">
            <thead>
              <tr>
                <th>{t('settings.keys.name')}</th>
                <th>{t('settings.keys.key')}</th>
                <th>{t('settings.keys.createdBy')}</th>
                <th>{t('settings.keys.createdAt')}</th>
                <th>
                  <span className="sr-only">{t('common.delete')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.slice((current - 1) * PAGE, current * PAGE).map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td className="font-mono text-xs">{key.key}</td>
                  <td>
                    {key.created_by === 'anonymous' ? t('settings.keys.anonymous') : (key.created_by ?? t('settings.keys.unknownCreator'))}
                  </td>
                  <td className="whitespace-nowrap">{formatDateTime(key.created_at, hour12)}</td>
                  <td className="text-right">
                    <button
                      type="button"
                      className="btn-danger px-2 py-1"
                      aria-label={t('settings.keys.delete', { name: key.name })}
                      onClick={() => void remove(key.id)}
                    >
                      {t('common.delete')}
                    </button>
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
    </div>
  );
}
