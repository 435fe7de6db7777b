import { useTranslation } from 'react-i18next';
import { DaysInput } from '../../components/inputs';
import { STORAGE, usePreference } from '../../store/preferences';
import { SessionsSection } from './Sessions';
import { RecentlyAddedSection } from './RecentlyAdded';
import { StatCardGrid } from './StatCards';
import { LibraryOverviewSection } from './LibraryOverview';

export const DEFAULT_HOME_DAYS = 30;

export default function Home() {
  const { t } = useTranslation();
  const [days, setDays] = usePreference(STORAGE.homeStatDays, DEFAULT_HOME_DAYS);
  return (
    <div>
      <h1 className="page-title">{t('nav.home')}</h1>
      <SessionsSection />
      <RecentlyAddedSection />
      <section aria-labelledby="stats-title" className="mb-8">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id="stats-title" className="text-lg font-semibold text-white">
            {t('home.watchStatistics')} <span className="text-sm font-normal text-gray-400">{t('common.lastDays', { count: days })}</span>
          </h2>
          <DaysInput value={days} onApply={setDays} label={t('common.days')} />
        </div>
        <StatCardGrid days={days} />
      </section>
      <LibraryOverviewSection />
    </div>
  );
}
