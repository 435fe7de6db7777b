import { useTranslation } from 'react-i18next';
import { useLibraryOverview } from '../../api/stats';
import { Panel } from '../../components/Panel';
import type { LibraryOverview } from '../../api/types';

const KINDS = ['movies', 'tvshows', 'music', 'mixed'] as const;
type Kind = (typeof KINDS)[number];

export function libraryKind(collectionType: string | null | undefined): Kind {
  return collectionType === 'movies' || collectionType === 'tvshows' || collectionType === 'music' ? collectionType : 'mixed';
}

/** Four cards: movie, show, music and mixed libraries, with their counts summed. */
export function LibraryOverviewSection() {
  const { t } = useTranslation();
  const query = useLibraryOverview();
  const totals = new Map<Kind, { libraries: number; items: number; seasons: number; episodes: number }>();
  for (const kind of KINDS) totals.set(kind, { libraries: 0, items: 0, seasons: 0, episodes: 0 });
  for (const library of query.data ?? ([] as LibraryOverview[])) {
    const total = totals.get(libraryKind(library.CollectionType))!;
    total.libraries += 1;
    total.items += library.Library_Count ?? 0;
    total.seasons += library.Season_Count ?? 0;
    total.episodes += library.Episode_Count ?? 0;
  }
  return (
    <section aria-labelledby="overview-title" className="mb-8">
      <h2 id="overview-title" className="mb-3 text-lg font-semibold text-white">
        {t('home.libraryOverview')}
      </h2>
      <Panel isLoading={query.isLoading} error={query.error}>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
          {KINDS.map((kind) => {
            const total = totals.get(kind)!;
            return (
              <div key={kind} className="card" data-testid={`overview-${kind}`}>
                <h3 className="text-sm font-semibold text-white">{t(`libraries.kinds.${kind}`)}</h3>
                <p className="text-xs text-gray-400">{t('home.overview.libraries', { count: total.libraries })}</p>
                {kind === 'tvshows' ? (
                  <p className="mt-2 text-sm">
                    {t('home.overview.series', { count: total.items })} / {t('home.overview.seasons', { count: total.seasons })} /{' '}
                    {t('home.overview.episodes', { count: total.episodes })}
                  </p>
                ) : (
                  <p className="mt-2 text-sm">{t('home.overview.items', { count: total.items })}</p>
                )}
              </div>
            );
          })}
        </div>
      </Panel>
    </section>
  );
}
