import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import type { StatItem } from '../../api/types';
import {
  useMostActiveUsers,
  useMostPopularByType,
  useMostUsedClient,
  useMostViewedByType,
  useMostViewedLibraries,
  usePlaybackMethodStats,
} from '../../api/stats';
import { Panel } from '../../components/Panel';
import { Poster } from '../../components/media';

type LinkKind = 'item' | 'user' | 'library' | 'none';
export const TOP = 5;

function linkFor(kind: LinkKind, row: StatItem): string | null {
  if (kind === 'item' && row.Id) return `/libraries/item/${row.Id}`;
  if (kind === 'user' && (row.UserId ?? row.Id)) return `/users/${row.UserId ?? row.Id}`;
  if (kind === 'library' && row.Id) return `/libraries/${row.Id}`;
  return null;
}

/** Top 5 with rank, name link and count; units are plays or users. */
export function StatCard({
  title,
  query,
  link,
  unit,
  countOf,
  image = false,
}: {
  title: string;
  query: Pick<UseQueryResult<StatItem[]>, 'data' | 'isLoading' | 'error'>;
  link: LinkKind;
  unit: 'plays' | 'users';
  countOf: (row: StatItem) => number;
  image?: boolean;
}) {
  const { t } = useTranslation();
  const rows = (query.data ?? []).slice(0, TOP);
  const first = rows[0];
  return (
    <section className="card flex gap-3" aria-label={title} data-testid="stat-card">
      {image && first && <Poster id={first.Id} archived={first.archived} alt={first.Name ?? ''} className="hidden h-40 w-28 sm:flex" />}
      <div className="min-w-0 flex-1">
        <h3 className="mb-2 flex justify-between gap-2 text-sm font-semibold text-white">
          <span className="truncate">{title}</span>
          <span className="shrink-0 text-xs font-normal uppercase text-gray-400">{t(`home.units.${unit}`)}</span>
        </h3>
        <Panel isLoading={query.isLoading} error={query.error} isEmpty={rows.length === 0} empty="home.noStats">
          <ol className="space-y-1 text-sm">
            {rows.map((row, index) => {
              const href = linkFor(link, row);
              const name =
                row.archived && link === 'item' ? `${row.Name ?? ''} (${t('common.archived')})` : (row.Name ?? row.Client ?? '-');
              return (
                <li key={`${row.Id ?? row.Name}-${index}`} className="flex items-center gap-2">
                  <span className="w-4 shrink-0 text-gray-500">{index + 1}</span>
                  <span className="min-w-0 flex-1 truncate">
                    {href ? (
                      <Link to={href} className="hover:underline">
                        {name}
                      </Link>
                    ) : (
                      name
                    )}
                  </span>
                  <span className="shrink-0 tabular-nums text-gray-300">{countOf(row)}</span>
                </li>
              );
            })}
          </ol>
        </Panel>
      </div>
    </section>
  );
}

const plays = (row: StatItem) => row.Plays ?? row.Count ?? 0;
const viewers = (row: StatItem) => row.unique_viewers ?? row.Count ?? 0;

/** The ten cards of the watch-statistics grid for a window of `days`. */
/** The home page's cards; `forViewer` leaves out the most active users (other people's names). */
export function StatCardGrid({ days, forViewer = false }: { days: number; forViewer?: boolean }) {
  const { t } = useTranslation();
  const cards = [
    {
      title: t('home.cards.mostViewedMovies'),
      query: useMostViewedByType(days, 'Movie'),
      link: 'item',
      unit: 'plays',
      count: plays,
      image: true,
    },
    {
      title: t('home.cards.mostPopularMovies'),
      query: useMostPopularByType(days, 'Movie'),
      link: 'item',
      unit: 'users',
      count: viewers,
      image: true,
    },
    {
      title: t('home.cards.mostViewedSeries'),
      query: useMostViewedByType(days, 'Series'),
      link: 'item',
      unit: 'plays',
      count: plays,
      image: true,
    },
    {
      title: t('home.cards.mostPopularSeries'),
      query: useMostPopularByType(days, 'Series'),
      link: 'item',
      unit: 'users',
      count: viewers,
      image: true,
    },
    {
      title: t('home.cards.mostListenedMusic'),
      query: useMostViewedByType(days, 'Audio'),
      link: 'item',
      unit: 'plays',
      count: plays,
      image: true,
    },
    {
      title: t('home.cards.mostPopularMusic'),
      query: useMostPopularByType(days, 'Audio'),
      link: 'item',
      unit: 'users',
      count: viewers,
      image: true,
    },
    { title: t('home.cards.mostViewedLibraries'), query: useMostViewedLibraries(days), link: 'library', unit: 'plays', count: plays },
    { title: t('home.cards.mostUsedClients'), query: useMostUsedClient(days), link: 'none', unit: 'plays', count: plays },
    { title: t('home.cards.mostActiveUsers'), query: useMostActiveUsers(days, !forViewer), link: 'user', unit: 'plays', count: plays },
    { title: t('home.cards.concurrentStreams'), query: usePlaybackMethodStats(days), link: 'none', unit: 'plays', count: plays },
  ] as const;
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
      {cards
        .filter((card) => !(forViewer && card.link === 'user'))
        .map((card) => (
          <StatCard
            key={card.title}
            title={card.title}
            query={card.query}
            link={card.link}
            unit={card.unit}
            countOf={card.count}
            image={'image' in card}
          />
        ))}
    </div>
  );
}
