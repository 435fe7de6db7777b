import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { configSetup, createUser } from '../../api/auth';
import { beginFullSync } from '../../api/settings';
import { setStoredToken } from '../../store/preferences';
import { apiBase } from '../../api/api-base';
import { authErrorText } from '../login/login-errors';
import { PasswordInput } from './PasswordInput';

/** Waits about 2 seconds after saving the server, starts a full sync and goes to the root (SPEC.md §2). */
const SYNC_DELAY_MS = 2000;

function StepOne() {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { token } = await createUser(username, password);
      setStoredToken(token);
      window.location.reload();
    } catch (failure) {
      setError(authErrorText(failure, t, true));
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} className="space-y-4">
      <div>
        <label htmlFor="setup-username" className="label">
          {t('auth.username')}
        </label>
        <input
          id="setup-username"
          className="input"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          required
        />
      </div>
      <PasswordInput id="setup-password" label={t('auth.password')} value={password} onChange={setPassword} autoComplete="new-password" />
      {error && (
        <p role="alert" className="text-sm text-red-400">
          {error}
        </p>
      )}
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? t('common.validating') : t('setup.createAccount')}
      </button>
    </form>
  );
}

function StepTwo() {
  const { t } = useTranslation();
  const [host, setHost] = useState('');
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    try {
      const answer = await configSetup(host.trim(), key.trim());
      setStatus({ ok: true, text: `${answer.message}. ${t('setup.syncStarting')}` });
      await new Promise((resolve) => setTimeout(resolve, SYNC_DELAY_MS));
      await beginFullSync().catch(() => undefined);
      window.location.assign(`${apiBase}/`);
    } catch (failure) {
      setStatus({ ok: false, text: authErrorText(failure, t, true) });
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} className="space-y-4">
      <div>
        <label htmlFor="setup-host" className="label">
          {t('settings.general.serverUrl')}
        </label>
        <input
          id="setup-host"
          className="input"
          type="url"
          placeholder="http://jellyfin:8096"
          value={host}
          onChange={(e) => setHost(e.target.value)}
          required
        />
      </div>
      <PasswordInput id="setup-key" label={t('settings.general.apiKey')} value={key} onChange={setKey} autoComplete="off" />
      {status && (
        <p role={status.ok ? 'status' : 'alert'} className={`text-sm ${status.ok ? 'text-emerald-400' : 'text-red-400'}`}>
          {status.text}
        </p>
      )}
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? t('common.validating') : t('common.save')}
      </button>
    </form>
  );
}

export default function Setup({ step }: { step: 1 | 2 }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <section className="card w-full max-w-md" aria-labelledby="setup-title">
        <p className="text-sm text-gray-400">{t('setup.step', { step, total: 2 })}</p>
        <h1 id="setup-title" className="mb-4 text-xl font-semibold text-white">
          {step === 1 ? t('setup.accountTitle') : t('setup.serverTitle')}
        </h1>
        {step === 1 ? <StepOne /> : <StepTwo />}
      </section>
    </div>
  );
}
