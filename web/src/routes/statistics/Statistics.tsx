import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DaysInput, Tabs } from '../../components/inputs';
import { STORAGE, usePreference } from '../../store/preferences';
import { ViewsChart } from './ViewsChart';

export const DEFAULT_STATISTICS_DAYS = 20;

export default function Statistics() {
  const { t } = useTranslation();
  const [days, setDays] = usePreference(STORAGE.statisticsDays, DEFAULT_STATISTICS_DAYS);
  const [measure, setMeasure] = useState<'count' | 'duration'>('count');
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title mb-0">{t('nav.statistics')}</h1>
        <div className="flex flex-wrap items-center gap-3">
          <Link className="btn-secondary" to="/year-in-review">
            {t('yearReview.open')}
          </Link>
          <DaysInput value={days} onApply={setDays} label={t('common.lastNDays')} />
        </div>
      </div>
      <Tabs
        label={t('stats.views')}
        value={measure}
        onChange={setMeasure}
        tabs={[
          { id: 'count', label: t('stats.countView') },
          { id: 'duration', label: t('stats.durationView') },
        ]}
      />
      <ViewsChart chart="getViewsOverTime" days={days} measure={measure} title={t('stats.perDay')} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <ViewsChart chart="getViewsByDays" days={days} measure={measure} title={t('stats.perWeekday')} />
        <ViewsChart chart="getViewsByHour" days={days} measure={measure} title={t('stats.perHour')} />
      </div>
    </div>
  );
}
