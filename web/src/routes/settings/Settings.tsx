import { useTranslation } from 'react-i18next';
import { Tabs } from '../../components/inputs';
import { STORAGE, usePreference } from '../../store/preferences';
import { GeneralSettings } from './GeneralSettings';
import { LibrarySettings } from './LibrarySettings';
import { ApiKeys } from './ApiKeys';
import { Logs } from './Logs';
import { Backup } from './Backup';
import { Webhooks } from './Webhooks';

const TABS = ['general', 'libraries', 'keys', 'webhooks', 'backup', 'logs'] as const;
type Tab = (typeof TABS)[number];

export default function Settings() {
  const { t } = useTranslation();
  const [stored, setTab] = usePreference<string>(STORAGE.settingsTab, 'general');
  const tab: Tab = (TABS as readonly string[]).includes(stored) ? (stored as Tab) : 'general';
  return (
    <div>
      <h1 className="page-title">{t('nav.settings')}</h1>
      <Tabs
        label={t('settings.tabs.label')}
        value={tab}
        onChange={setTab}
        tabs={TABS.map((id) => ({ id, label: t(`settings.tabs.${id}`) }))}
      />
      {tab === 'general' && <GeneralSettings />}
      {tab === 'libraries' && <LibrarySettings />}
      {tab === 'keys' && <ApiKeys />}
      {tab === 'webhooks' && <Webhooks />}
      {tab === 'backup' && <Backup />}
      {tab === 'logs' && <Logs />}
    </div>
  );
}
