import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useAdminUsers, setConfig, setExternalUrl, setPreferredAdmin } from '../../api/settings';
import { useConfig } from '../../api/auth';
import { useMediaServers } from '../../api/media-servers';
import { errorMessage } from '../../api/client';
import { PasswordInput } from '../setup/PasswordInput';
import { FormStatus } from './FormStatus';

type Status = { ok: boolean; text: string } | null;

export function MediaServerForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const config = useConfig();
  const admins = useAdminUsers();
  const severalServers = (useMediaServers().data?.length ?? 0) > 1;
  const managed = config.data?.MANAGED_BY && config.data.MANAGED_BY !== 'ui' ? config.data.MANAGED_BY : null;
  // "Managed by Kubernetes (namespace/name)": the MediaStatsServer to edit instead.
  const managedBy = managed === 'kubernetes' ? `Kubernetes${config.data?.MANAGED_REF ? ` (${config.data.MANAGED_REF})` : ''}` : managed;
  const [host, setHost] = useState('');
  const [key, setKey] = useState('');
  const [external, setExternal] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<Record<string, Status>>({});
  useEffect(() => {
    if (!config.data) return;
    setHost(config.data.JF_HOST ?? '');
    setExternal(config.data.settings.EXTERNAL_URL ?? '');
  }, [config.data]);

  async function run(form: string, action: () => Promise<unknown>) {
    setBusy(form);
    setStatus((s) => ({ ...s, [form]: null }));
    try {
      await action();
      setStatus((s) => ({ ...s, [form]: { ok: true, text: t('settings.success') } }));
      await queryClient.invalidateQueries({ queryKey: ['config'] });
    } catch (error) {
      setStatus((s) => ({ ...s, [form]: { ok: false, text: t('settings.saveError', { message: errorMessage(error) }) } }));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="space-y-6">
      {/* With several servers, the server list above edits addresses and keys; this form is the single-server one. */}
      {!severalServers && (
        <form
          className="space-y-3"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void run('server', () => setConfig(host.trim(), key.trim()));
          }}
        >
          <h3 className="font-semibold text-white">{t('settings.general.mediaServer')}</h3>
          {managed && <p className="text-sm text-amber-300">{t('settings.general.managedBy', { by: managedBy })}</p>}
          {config.data?.MEDIA_SERVER_KEY_ERROR && (
            <p role="alert" className="text-sm text-red-300">
              {config.data.MEDIA_SERVER_KEY_ERROR}
            </p>
          )}
          <div>
            <label htmlFor="settings-host" className="label">
              {t('settings.general.serverUrl')}
            </label>
            <input
              id="settings-host"
              className="input"
              value={host}
              onChange={(e) => setHost(e.target.value)}
              disabled={Boolean(managed)}
              required
            />
          </div>
          {!managed && (
            <PasswordInput id="settings-key" label={t('settings.general.apiKey')} value={key} onChange={setKey} autoComplete="off" />
          )}
          <FormStatus status={status.server ?? null} />
          {!managed && (
            <button type="submit" className="btn-primary" disabled={busy === 'server'}>
              {busy === 'server' ? t('common.validating') : t('common.save')}
            </button>
          )}
        </form>
      )}
      <form
        className="space-y-3"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void run('external', () => setExternalUrl(external.trim()));
        }}
      >
        <label htmlFor="settings-external" className="label">
          {t('settings.general.externalUrl')}
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id="settings-external"
            className="input"
            type="url"
            placeholder="https://jellyfin.example.org"
            value={external}
            onChange={(e) => setExternal(e.target.value)}
          />
          <button type="submit" className="btn-primary shrink-0" disabled={busy === 'external'}>
            {busy === 'external' ? t('common.validating') : t('common.save')}
          </button>
        </div>
        <FormStatus status={status.external ?? null} />
      </form>
      <div className="space-y-2">
        <label htmlFor="settings-admin" className="label">
          {t('settings.general.preferredAdmin')}
        </label>
        <select
          id="settings-admin"
          className="input sm:w-72"
          value={config.data?.settings.preferred_admin?.userid ?? ''}
          onChange={(e) => {
            const admin = (admins.data ?? []).find((a) => a.Id === e.target.value);
            if (admin) void run('admin', () => setPreferredAdmin(admin.Id, admin.Name));
          }}
        >
          <option value="">{t('settings.general.chooseAdmin')}</option>
          {(admins.data ?? []).map((admin) => (
            <option key={admin.Id} value={admin.Id}>
              {admin.Name}
            </option>
          ))}
        </select>
        <FormStatus status={status.admin ?? null} />
      </div>
    </div>
  );
}
