import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useConfig } from '../../api/auth';
import { setRequireLogin, updateCredentials } from '../../api/settings';
import { errorMessage } from '../../api/client';
import { deleteApiKey, useApiKeys } from '../../api/keys';
import { validateCredentials } from '../../lib/rules';
import { setStoredToken } from '../../store/preferences';
import { PasswordInput } from '../setup/PasswordInput';
import { FormStatus } from './FormStatus';

export function SecurityForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const config = useConfig();
  const [username, setUsername] = useState('');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [loginStatus, setLoginStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const keys = useApiKeys();
  // Shown after require-login is switched on while API keys exist: they keep working, say so and offer to revoke.
  const [keysWarning, setKeysWarning] = useState(false);
  useEffect(() => {
    if (config.data?.APP_USER) setUsername(config.data.APP_USER);
  }, [config.data?.APP_USER]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = validateCredentials({ username, currentPassword: current, newPassword: next });
    if (problem) {
      setStatus({ ok: false, text: t(`settings.security.${problem}`) });
      return;
    }
    setBusy(true);
    setStatus(null);
    try {
      const answer = await updateCredentials(username.trim(), current, next);
      if (!answer.isValid) setStatus({ ok: false, text: answer.errorMessage });
      else {
        // A password change revokes older tokens; the server hands back a fresh one.
        if (answer.token) setStoredToken(answer.token);
        setStatus({ ok: true, text: current ? t('settings.security.passwordUpdated') : t('settings.success') });
        setCurrent('');
        setNext('');
        await queryClient.invalidateQueries({ queryKey: ['config'] });
      }
    } catch (error) {
      setStatus({ ok: false, text: t('settings.saveError', { message: errorMessage(error) }) });
    } finally {
      setBusy(false);
    }
  }

  async function changeRequireLogin(value: boolean) {
    setLoginStatus(null);
    try {
      await setRequireLogin(value);
      await queryClient.invalidateQueries({ queryKey: ['config'] });
      setLoginStatus({ ok: true, text: t('settings.success') });
      setKeysWarning(value && (keys.data?.length ?? 0) > 0);
    } catch (error) {
      setLoginStatus({ ok: false, text: t('settings.saveError', { message: errorMessage(error) }) });
    }
  }

  async function revokeAllKeys() {
    try {
      for (const key of keys.data ?? []) await deleteApiKey({ id: key.id });
      setKeysWarning(false);
      setLoginStatus({ ok: true, text: t('settings.security.keysRevoked') });
    } catch (error) {
      setLoginStatus({ ok: false, text: errorMessage(error) });
    } finally {
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    }
  }

  return (
    <div className="space-y-4">
      <form className="space-y-3" onSubmit={submit} noValidate>
        <h3 className="font-semibold text-white">{t('settings.security.title')}</h3>
        <div>
          <label htmlFor="security-username" className="label">
            {t('auth.username')}
          </label>
          <input
            id="security-username"
            className="input sm:w-72"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </div>
        <PasswordInput
          id="security-current"
          label={t('settings.security.currentPassword')}
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          required={false}
        />
        <PasswordInput
          id="security-new"
          label={t('settings.security.newPassword')}
          value={next}
          onChange={setNext}
          autoComplete="new-password"
          required={false}
        />
        <FormStatus status={status} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? t('common.validating') : t('common.save')}
        </button>
      </form>
      <fieldset className="space-y-2">
        <legend className="label">{t('settings.security.requireLogin')}</legend>
        <div className="flex gap-4 text-sm">
          {[true, false].map((value) => (
            <label key={String(value)} className="flex items-center gap-2">
              <input
                type="radio"
                name="require-login"
                checked={config.data?.REQUIRE_LOGIN === value}
                onChange={() => void changeRequireLogin(value)}
              />
              {value ? t('common.yes') : t('common.no')}
            </label>
          ))}
        </div>
        {config.data?.REQUIRE_LOGIN === false && <p className="text-sm text-amber-300">{t('settings.security.requireLoginWarning')}</p>}
        {keysWarning && (
          <div role="alert" className="space-y-2 rounded-md bg-amber-950 px-3 py-2 text-sm text-amber-200" data-testid="keys-stay-valid">
            <p>{t('settings.security.keysStayValid', { count: keys.data?.length ?? 0 })}</p>
            <div className="flex gap-2">
              <button type="button" className="btn-danger px-2 py-1" onClick={() => void revokeAllKeys()}>
                {t('settings.security.revokeKeys')}
              </button>
              <button type="button" className="btn-secondary px-2 py-1" onClick={() => setKeysWarning(false)}>
                {t('settings.security.keepKeys')}
              </button>
            </div>
          </div>
        )}
        <FormStatus status={loginStatus} />
      </fieldset>
    </div>
  );
}
