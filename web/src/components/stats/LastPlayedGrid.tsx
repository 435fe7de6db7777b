import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { LastPlayed } from '../../api/types';
import { Panel } from '../Panel';
import { Poster } from '../media';
import { agoParts } from '../../lib/format';

/** 'Last watched' cards: time ago, user, item, episode and S/E. */
export function LastPlayedGrid({ query }: { query: { data?: LastPlayed[]; isLoading: boolean; error: unknown } }) {
  const { t } = useTranslation();
  const rows = query.data ?? [];
  return (
    <section className="mb-6" aria-label={t('stats.lastWatched')}>
      <h2 className="mb-2 text-lg font-semibold text-white">{t('stats.lastWatched')}</h2>
      <Panel isLoading={query.isLoading} error={query.error} isEmpty={rows.length === 0} empty="activity.empty">
        <div className="flex gap-3 overflow-x-auto pb-2">
          {rows.map((row, index) => {
            const ago = agoParts(row.LastPlayed);
            return (
              <div key={`${row.Id}-${index}`} className="card flex w-36 shrink-0 flex-col gap-1 p-2 text-xs">
                <Poster id={row.Id} archived={row.archived} alt={row.Name} className="h-48 w-full" />
                <span className="text-gray-400">{ago ? t(`common.ago.${ago.unit}`, { count: ago.value }) : t('common.never')}</span>
                {row.UserId && (
                  <Link className="link truncate" to={`/users/${row.UserId}`}>
                    {row.UserName}
                  </Link>
                )}
                <Link className="truncate text-sm text-white hover:underline" to={`/libraries/item/${row.Id}`}>
                  {row.Name}
                </Link>
                {row.EpisodeName && (
                  <span className="truncate text-gray-400">
                    S{row.SeasonNumber} - E{row.EpisodeNumber} · {row.EpisodeName}
                  </span>
                )}
              </div>
            );
          })}
        </div>
      </Panel>
    </section>
  );
}
