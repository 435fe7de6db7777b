import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { login } from '../../api/auth';
import { api } from '../../api/client';
import { getStoredToken, setStoredToken, STORAGE } from '../../store/preferences';
import { authErrorText } from './login-errors';
import { PasswordInput } from '../setup/PasswordInput';

export default function Login() {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // A stored token is tried on load: when the server still accepts it, the config is refreshed and the page reloads.
  useEffect(() => {
    const token = getStoredToken();
    if (!token) return;
    api('/api/getconfig').then(
      (config) => {
        localStorage.setItem(STORAGE.config, JSON.stringify(config));
        window.location.reload();
      },
      () => localStorage.removeItem(STORAGE.token),
    );
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { token } = await login(username, password);
      setStoredToken(token);
      const config = await api('/api/getconfig').catch(() => null);
      if (config) localStorage.setItem(STORAGE.config, JSON.stringify(config));
      window.location.reload();
    } catch (failure) {
      setError(authErrorText(failure, t));
      setBusy(false);
    }
  }

  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <form onSubmit={submit} className="card w-full max-w-sm space-y-4" aria-labelledby="login-title">
        <h1 id="login-title" className="text-xl font-semibold text-white">
          {t('auth.loginTitle')}
        </h1>
        <div>
          <label htmlFor="login-username" className="label">
            {t('auth.username')}
          </label>
          <input
            id="login-username"
            className="input"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
          />
        </div>
        <PasswordInput
          id="login-password"
          label={t('auth.password')}
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
        />
        <button type="submit" className={`w-full ${error ? 'btn-danger' : 'btn-primary'}`} disabled={busy}>
          {busy ? t('auth.signingIn') : (error ?? t('auth.login'))}
        </button>
      </form>
    </div>
  );
}
