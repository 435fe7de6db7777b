import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import {
  addMediaServer,
  editMediaServer,
  MEDIA_SERVERS_KEY,
  removeMediaServer,
  testLinkedMediaServer,
  testMediaServer,
  useMediaServers,
  type MediaServer,
} from '../../api/media-servers';
import { errorMessage } from '../../api/client';
import { PasswordInput } from '../setup/PasswordInput';
import { FormStatus } from './FormStatus';

type Status = { ok: boolean; text: string } | null;

function managedLabel(server: MediaServer, t: (key: string, options?: Record<string, unknown>) => string): string | null {
  if (server.ManagedBy === 'kubernetes') return t('servers.managed', { ref: server.ManagedRef ?? 'MediaStatsServer' });
  if (server.ManagedBy === 'environment') return t('servers.managedEnv');
  return null;
}

/** Address, key and optional name: the add form and a row's edit form. */
function ServerFields({
  prefix,
  url,
  apiKey,
  name,
  onChange,
  keyOptional = false,
}: {
  prefix: string;
  url: string;
  apiKey: string;
  name: string;
  onChange: (field: 'url' | 'apiKey' | 'name', value: string) => void;
  keyOptional?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <div>
        <label htmlFor={`${prefix}-url`} className="label">
          {t('servers.url')}
        </label>
        <input id={`${prefix}-url`} className="input" value={url} onChange={(e) => onChange('url', e.target.value)} />
      </div>
      <div>
        <PasswordInput
          id={`${prefix}-key`}
          label={keyOptional ? `${t('servers.apiKey')} (${t('servers.keepKey')})` : t('servers.apiKey')}
          value={apiKey}
          onChange={(value) => onChange('apiKey', value)}
          autoComplete="off"
          required={!keyOptional}
        />
      </div>
      <div>
        <label htmlFor={`${prefix}-name`} className="label">
          {t('servers.name')}
        </label>
        <input id={`${prefix}-name`} className="input" value={name} onChange={(e) => onChange('name', e.target.value)} />
      </div>
    </div>
  );
}

function ServerRow({ server, onStatus }: { server: MediaServer; onStatus: (status: Status) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [fields, setFields] = useState({ url: server.Url, apiKey: '', name: server.Name });
  const [busy, setBusy] = useState(false);
  const managed = managedLabel(server, t);

  async function run(action: () => Promise<Status>) {
    setBusy(true);
    onStatus(null);
    try {
      onStatus(await action());
      await queryClient.invalidateQueries({ queryKey: MEDIA_SERVERS_KEY });
    } catch (error) {
      onStatus({ ok: false, text: t('settings.saveError', { message: errorMessage(error) }) });
    } finally {
      setBusy(false);
    }
  }

  const test = () =>
    run(async () => {
      const answer = await testLinkedMediaServer(server.Id);
      return { ok: answer.ok, text: t(answer.ok ? 'servers.testOk' : 'servers.testFailed', { message: answer.message }) };
    });

  return (
    <li className="rounded-md border border-gray-800 p-3" data-testid="media-server-row" data-server-id={server.Id}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className="min-w-0 flex-1">
          <div className="font-medium text-white">
            {server.Name}{' '}
            <span className="text-xs text-gray-400">
              {server.Kind === 'emby' ? 'Emby' : 'Jellyfin'} {server.Version ?? ''}
              {server.IsDefault ? ` · ${t('servers.defaultTag')}` : ''}
              {server.Suspended ? ` · ${t('servers.suspended')}` : ''}
            </span>
          </div>
          <div className="truncate text-xs text-gray-400">{server.Url}</div>
          {managed && <div className="text-xs text-amber-300">{managed}</div>}
          {server.ApiKeyError && (
            <div role="alert" className="text-xs text-red-300">
              {server.ApiKeyError}
            </div>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-secondary px-2 py-1 text-xs" disabled={busy} onClick={() => void test()}>
            {t('servers.test')}
          </button>
          {!managed && (
            <>
              {!server.IsDefault && (
                <button
                  type="button"
                  className="btn-secondary px-2 py-1 text-xs"
                  disabled={busy}
                  onClick={() =>
                    void run(async () => ({ ok: true, text: (await editMediaServer(server.Id, { IsDefault: true })).message }))
                  }
                >
                  {t('servers.makeDefault')}
                </button>
              )}
              <button type="button" className="btn-secondary px-2 py-1 text-xs" disabled={busy} onClick={() => setEditing(!editing)}>
                {t('servers.edit')}
              </button>
              <button
                type="button"
                className="btn-secondary px-2 py-1 text-xs text-red-300"
                disabled={busy}
                onClick={() => {
                  if (!window.confirm(t('servers.confirmRemove', { name: server.Name }))) return;
                  void run(async () => {
                    await removeMediaServer(server.Id);
                    return { ok: true, text: t('servers.removed', { name: server.Name }) };
                  });
                }}
              >
                {t('servers.remove')}
              </button>
            </>
          )}
        </div>
      </div>
      {editing && !managed && (
        <form
          className="mt-3 space-y-3"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void run(async () => {
              const answer = await editMediaServer(server.Id, {
                ...(fields.url.trim() !== server.Url ? { Url: fields.url.trim() } : {}),
                ...(fields.apiKey.trim() ? { ApiKey: fields.apiKey.trim() } : {}),
                ...(fields.name.trim() && fields.name.trim() !== server.Name ? { Name: fields.name.trim() } : {}),
              });
              setEditing(false);
              return { ok: true, text: answer.message };
            });
          }}
        >
          <ServerFields
            prefix={`server-${server.Id}`}
            {...fields}
            keyOptional
            onChange={(field, value) => setFields((current) => ({ ...current, [field]: value }))}
          />
          <div className="flex gap-2">
            <button type="submit" className="btn-primary" disabled={busy}>
              {t('servers.save')}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setEditing(false)}>
              {t('servers.cancel')}
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

/** Settings › the server list: add, edit, make default, remove (history kept), test; managed servers read-only. */
export function MediaServers() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const servers = useMediaServers();
  const [fields, setFields] = useState({ url: '', apiKey: '', name: '' });
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  async function run(action: () => Promise<Status>) {
    setBusy(true);
    setStatus(null);
    try {
      setStatus(await action());
    } catch (error) {
      setStatus({ ok: false, text: t('settings.saveError', { message: errorMessage(error) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4" data-testid="media-servers">
      <div>
        <h3 className="font-semibold text-white">{t('servers.title')}</h3>
        <p className="text-sm text-gray-400">{t('servers.intro')}</p>
      </div>
      <ul className="space-y-2">
        {(servers.data ?? []).map((server) => (
          <ServerRow key={server.Id} server={server} onStatus={setStatus} />
        ))}
      </ul>
      <form
        className="space-y-3"
        aria-label={t('servers.add')}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void run(async () => {
            const answer = await addMediaServer({
              Url: fields.url.trim(),
              ApiKey: fields.apiKey.trim(),
              ...(fields.name.trim() ? { Name: fields.name.trim() } : {}),
            });
            setFields({ url: '', apiKey: '', name: '' });
            await queryClient.invalidateQueries({ queryKey: MEDIA_SERVERS_KEY });
            return { ok: true, text: t('servers.added', { name: answer.server.Name }) };
          });
        }}
      >
        <h4 className="text-sm font-semibold text-white">{t('servers.add')}</h4>
        <ServerFields
          prefix="new-server"
          {...fields}
          onChange={(field, value) => setFields((current) => ({ ...current, [field]: value }))}
        />
        <div className="flex gap-2">
          <button type="submit" className="btn-primary" disabled={busy || !fields.url.trim() || !fields.apiKey.trim()}>
            {t('servers.add')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={busy || !fields.url.trim() || !fields.apiKey.trim()}
            onClick={() =>
              void run(async () => {
                const answer = await testMediaServer(fields.url.trim(), fields.apiKey.trim());
                return { ok: answer.ok, text: t(answer.ok ? 'servers.testOk' : 'servers.testFailed', { message: answer.message }) };
              })
            }
          >
            {t('servers.test')}
          </button>
        </div>
      </form>
      <FormStatus status={status} />
    </div>
  );
}
