import { useTranslation } from 'react-i18next';
import { useUpdateInfo } from '../../api/auth';
import { Panel } from '../../components/Panel';
import { RELEASES_URL } from '../Sidebar';

export const SOURCE_URL = 'https://github.com/reelstat/reelstat';

export default function About() {
  const { t } = useTranslation();
  const update = useUpdateInfo();
  return (
    <div>
      <h1 className="page-title">{t('nav.about')}</h1>
      <div className="card max-w-xl space-y-2 text-sm">
        <Panel isLoading={update.isLoading} error={update.error}>
          <p>
            <span className="text-gray-400">{t('about.version')}: </span>
            <span data-testid="about-version">{update.data?.current_version}</span>
          </p>
          <p>
            <span className="text-gray-400">{t('about.latest')}: </span>
            {update.data?.latest_version}
          </p>
          <p>{update.data?.update_available ? t('about.updateAvailable') : t('about.upToDate')}</p>
          {update.data?.message && <p className="text-gray-400">{update.data.message}</p>}
          {update.data?.update_available && (
            <a className="link" href={RELEASES_URL} target="_blank" rel="noreferrer">
              {t('about.releases')}
            </a>
          )}
        </Panel>
        <p>
          <a className="link" href={SOURCE_URL} target="_blank" rel="noreferrer">
            {t('about.source')}
          </a>
        </p>
      </div>
    </div>
  );
}
