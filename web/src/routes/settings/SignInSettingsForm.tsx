import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignInSettings } from '@reelstat/contract';
import { saveSignInSettings, useSignInSettings } from '../../api/settings';
import { useAllUserActivity } from '../../api/stats';
import { errorMessage } from '../../api/client';
import { Panel } from '../../components/Panel';
import { FormStatus } from './FormStatus';

/** Sign-in with media-server accounts (on, off, or some users only) and what viewers see (docs/security.md). */
export function SignInSettingsForm() {
  const settings = useSignInSettings();
  if (settings.isLoading || !settings.data)
    return (
      <Panel isLoading={settings.isLoading} error={settings.error}>
        {null}
      </Panel>
    );
  return <SignInFields initial={settings.data} />;
}

function SignInFields({ initial }: { initial: SignInSettings }) {
  const { t } = useTranslation();
  const users = useAllUserActivity();
  const [enabled, setEnabled] = useState(initial.MEDIA_SERVER_SIGN_IN.enabled);
  const [onlyUsers, setOnlyUsers] = useState(initial.MEDIA_SERVER_SIGN_IN.onlyUsers);
  const [share, setShare] = useState(initial.VIEWERS_SEE_SERVER_STATS);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setStatus(null);
    try {
      await saveSignInSettings({ MEDIA_SERVER_SIGN_IN: { enabled, onlyUsers }, VIEWERS_SEE_SERVER_STATS: share });
      setStatus({ ok: true, text: t('settings.signIn.saved') });
    } catch (error) {
      setStatus({ ok: false, text: errorMessage(error) });
    }
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title" className="text-lg font-semibold text-white">
        {t('settings.signIn.title')}
      </h2>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        {t('settings.signIn.mediaServer')}
      </label>
      {enabled && (
        <fieldset className="ml-6">
          <legend className="label">{t('settings.signIn.onlyUsers')}</legend>
          <div className="flex flex-wrap gap-3">
            {(users.data ?? []).map((user) => (
              <label key={user.UserId} className="flex items-center gap-1 text-sm">
                <input
                  type="checkbox"
                  checked={onlyUsers.includes(user.UserId)}
                  onChange={() =>
                    setOnlyUsers(
                      onlyUsers.includes(user.UserId) ? onlyUsers.filter((id) => id !== user.UserId) : [...onlyUsers, user.UserId],
                    )
                  }
                />
                {user.UserName}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={share} onChange={(e) => setShare(e.target.checked)} />
        {t('settings.signIn.shareStats')}
      </label>
      <button type="submit" className="btn-primary">
        {t('common.save')}
      </button>
      <FormStatus status={status} />
    </form>
  );
}
