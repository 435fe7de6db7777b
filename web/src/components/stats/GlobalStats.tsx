import { useTranslation } from 'react-i18next';
import { useGlobalStats, type GlobalStatsScope } from '../../api/stats';
import { STAT_PERIODS } from '../../lib/rules';
import { formatDuration } from '../../lib/format';
import { STORAGE, usePreference } from '../../store/preferences';

/** 180 and 365 days are hidden by default; the choice of shown periods is stored. */
const DEFAULT_PERIODS = [1, 7, 30, 9999];

function PeriodCard({ scope, days }: { scope: GlobalStatsScope; days: number }) {
  const { t } = useTranslation();
  const query = useGlobalStats(scope, days);
  return (
    <div className="card" data-testid="global-stat">
      <h3 className="text-xs uppercase text-gray-400">{days === 9999 ? t('stats.allTime') : t('common.lastDays', { count: days })}</h3>
      {query.error ? (
        <p className="mt-1 text-sm text-gray-500">{t('common.noData')}</p>
      ) : (
        <>
          <p className="mt-1 text-xl font-semibold text-white">
            {query.isLoading ? '…' : t('stats.plays', { count: query.data?.Plays ?? 0 })}
          </p>
          <p className="text-sm text-gray-400">{formatDuration(query.data?.total_playback_duration ?? 0)}</p>
        </>
      )}
    </div>
  );
}

export function GlobalStats({ scope }: { scope: GlobalStatsScope }) {
  const { t } = useTranslation();
  const [periods, setPeriods] = usePreference<number[]>(STORAGE.globalStatsPeriods, DEFAULT_PERIODS);
  return (
    <section className="mb-6" aria-label={t('stats.globalStats')}>
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <h2 className="text-lg font-semibold text-white">{t('stats.globalStats')}</h2>
        <details className="text-sm">
          <summary className="cursor-pointer text-gray-400">{t('stats.periods')}</summary>
          <div className="mt-2 flex flex-wrap gap-3">
            {STAT_PERIODS.map((days) => (
              <label key={days} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={periods.includes(days)}
                  onChange={() =>
                    setPeriods(periods.includes(days) ? periods.filter((d) => d !== days) : [...periods, days].sort((a, b) => a - b))
                  }
                />
                {days === 9999 ? t('stats.allTime') : t('common.lastDays', { count: days })}
              </label>
            ))}
          </div>
        </details>
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        {periods.map((days) => (
          <PeriodCard key={days} scope={scope} days={days} />
        ))}
      </div>
    </section>
  );
}
