import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../../i18n/locales';
import { STORAGE, usePreference } from '../../store/preferences';
import { MediaServerForm } from './MediaServerForm';
import { MediaServers } from './MediaServers';
import { SecurityForm } from './SecurityForm';
import { SignInSettingsForm } from './SignInSettingsForm';
import { ActivityMonitorForm } from './ActivityMonitorForm';
import { TasksTable } from './TasksTable';

function Preferences() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [hour12, setHour12] = usePreference(STORAGE.hour12, false);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <fieldset>
        <legend className="label">{t('settings.general.timeFormat')}</legend>
        <div className="flex gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name="time-format" checked={!hour12} onChange={() => setHour12(false)} />
            {t('settings.general.h24')}
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="time-format" checked={hour12} onChange={() => setHour12(true)} />
            {t('settings.general.h12')}
          </label>
        </div>
      </fieldset>
      <div>
        <label htmlFor={`${id}-language`} className="label">
          {t('settings.general.language')}
        </label>
        <select
          id={`${id}-language`}
          className="input"
          value={i18n.language}
          onChange={(e) => void i18n.changeLanguage(e.target.value as Language)}
        >
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng}>
              {LANGUAGE_NAMES[lng]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

export function GeneralSettings() {
  return (
    <div className="space-y-8">
      <section className="card">
        <MediaServers />
      </section>
      <section className="card">
        <MediaServerForm />
      </section>
      <section className="card">
        <Preferences />
      </section>
      <section className="card">
        <SecurityForm />
      </section>
      <section className="card">
        <SignInSettingsForm />
      </section>
      <section className="card">
        <ActivityMonitorForm />
      </section>
      <section className="card">
        <TasksTable />
      </section>
    </div>
  );
}
