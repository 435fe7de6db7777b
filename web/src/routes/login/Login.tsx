import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { login, mediaServerLogin, useSignInMethods } from '../../api/auth';
import { api, ApiError } from '../../api/client';
import { apiBase } from '../../api/api-base';
import { getStoredToken, setStoredToken, STORAGE } from '../../store/preferences';
import { authErrorText } from './login-errors';
import { PasswordInput } from '../setup/PasswordInput';

/**
 * Sign-in with one form: the local administrator first, then (when a media server is linked and the
 * administrator allows it) the same username and password as a Jellyfin or Emby account. The OpenID provider's
 * button is below the form when one is configured.
 */
export default function Login({ oidcError = null }: { oidcError?: string | null }) {
  const { t } = useTranslation();
  const methods = useSignInMethods();
  const mediaServer = methods.data?.mediaServer;
  const oidc = methods.data?.oidc;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(oidcError);

  // A stored token is tried on load: when the server still accepts it, the config is refreshed and the page reloads.
  useEffect(() => {
    const token = getStoredToken();
    if (!token) return;
    api('/api/getconfig').then(
      (config) => {
        localStorage.setItem(STORAGE.config, JSON.stringify(config));
        window.location.reload();
      },
      // A viewer's token is refused the configuration but is still a valid sign-in.
      () =>
        api('/auth/me').then(
          () => window.location.reload(),
          () => localStorage.removeItem(STORAGE.token),
        ),
    );
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { token } = await login(username, password).catch((failure: unknown) => {
        if (!(failure instanceof ApiError && failure.status === 401 && mediaServer?.enabled)) throw failure;
        return mediaServerLogin(username, password);
      });
      setStoredToken(token);
      const config = await api('/api/getconfig').catch(() => null);
      if (config) localStorage.setItem(STORAGE.config, JSON.stringify(config));
      window.location.reload();
    } catch (failure) {
      // The media server's refusals (turned off, not an allowed user, server down) say why in the server's words.
      setError(authErrorText(failure, t, Boolean(mediaServer?.enabled)));
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
        {oidc && (
          <a className="btn-secondary block w-full text-center" href={`${apiBase}${oidc.startUrl}`}>
            {t('auth.signInWith', { provider: oidc.label })}
          </a>
        )}
      </form>
    </div>
  );
}
