import { useTranslation } from 'react-i18next';
import { DaysInput } from '../../components/inputs';
import { STORAGE, usePreference } from '../../store/preferences';
import { StatCardGrid } from '../home/StatCards';
import { DEFAULT_HOME_DAYS } from '../home/Home';

/** Test page for the stat cards alone, with the same days window as Home. */
export default function TestingStats() {
  const { t } = useTranslation();
  const [days, setDays] = usePreference(STORAGE.homeStatDays, DEFAULT_HOME_DAYS);
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title mb-0">{t('testing.stats')}</h1>
        <DaysInput value={days} onApply={setDays} label={t('common.days')} />
      </div>
      <StatCardGrid days={days} />
    </div>
  );
}
