import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useLibraries } from '../../api/library';
import { useRecentlyAdded } from '../../api/library';
import { Panel } from '../../components/Panel';
import { Poster } from '../../components/media';
import { Switch } from '../../components/inputs';
import { formatDateTime } from '../../lib/format';
import { STORAGE, usePreference } from '../../store/preferences';
import type { RecentlyAdded as Entry } from '../../api/types';

const SHOWN = ['Series', 'Movie', 'Audio', 'Episode'];

function Card({ entry, hour12 }: { entry: Entry; hour12: boolean }) {
  const { t } = useTranslation();
  const target = entry.Type === 'Episode' ? (entry.EpisodeId ?? entry.Id) : entry.Id;
  const grouped = (entry.NewEpisodeCount ?? 0) > 0;
  return (
    <Link
      to={`/libraries/item/${target}`}
      className="card flex w-36 shrink-0 flex-col gap-1 p-2 hover:border-gray-600"
      data-testid="recent-card"
    >
      <Poster id={entry.SeriesId && entry.Type === 'Episode' ? entry.SeriesId : entry.Id} alt={entry.Name} className="h-48 w-full" />
      <span className="truncate text-sm font-medium text-white">{entry.SeriesName ?? entry.Name}</span>
      {grouped ? (
        <span className="text-xs text-gray-400">
          {t('home.recent.season', { season: entry.SeasonNumber ?? '?' })} ·{' '}
          {t('home.recent.newEpisodes', { count: entry.NewEpisodeCount ?? 0 })}
        </span>
      ) : entry.Type === 'Episode' ? (
        <span className="truncate text-xs text-gray-400">
          S{entry.SeasonNumber} - E{entry.EpisodeNumber} · {entry.Name}
        </span>
      ) : null}
      {entry.DateCreated && <span className="text-xs text-gray-500">{formatDateTime(entry.DateCreated, hour12)}</span>}
    </Link>
  );
}

export function RecentlyAddedSection() {
  const { t } = useTranslation();
  const id = useId();
  const [group, setGroup] = usePreference(STORAGE.groupRecentlyAdded, true);
  const [hour12] = usePreference(STORAGE.hour12, false);
  const [library, setLibrary] = useState<string>('');
  const libraries = useLibraries();
  const query = useRecentlyAdded(group, library || null);
  const entries = (query.data ?? []).filter((entry) => SHOWN.includes(entry.Type));
  return (
    <section aria-labelledby={`${id}-title`} className="mb-8">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
          {t('home.recentlyAdded')}
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2 text-sm text-gray-300">
            <Switch checked={group} onChange={setGroup} label={t('home.recent.group')} />
            {t('home.recent.group')}
          </label>
          <select className="input w-44" aria-label={t('home.recent.library')} value={library} onChange={(e) => setLibrary(e.target.value)}>
            <option value="">{t('home.recent.allLibraries')}</option>
            {(libraries.data ?? []).map((lib) => (
              <option key={lib.Id} value={lib.Id}>
                {lib.Name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Panel isLoading={query.isLoading} error={query.error} isEmpty={entries.length === 0} empty="home.recent.empty">
        <div className="flex gap-3 overflow-x-auto pb-2">
          {entries.map((entry) => (
            <Card key={`${entry.Id}-${entry.SeasonId ?? ''}`} entry={entry} hour12={hour12} />
          ))}
        </div>
      </Panel>
    </section>
  );
}
