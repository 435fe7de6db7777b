import { useTranslation } from 'react-i18next';
import { PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, ResponsiveContainer, Tooltip } from 'recharts';
import type { GenreStat } from '../../api/types';
import { Panel } from '../Panel';

export const TOP_GENRES = 15;

/** The top 15 genres by a measure, for the radar (Tremor has no radar: recharts directly). */
export function topGenres(stats: readonly GenreStat[], by: 'duration' | 'plays'): GenreStat[] {
  return [...stats].sort((a, b) => b[by] - a[by]).slice(0, TOP_GENRES);
}

export function GenreRadars({ query }: { query: { data?: { results: GenreStat[] }; isLoading: boolean; error: unknown } }) {
  const { t } = useTranslation();
  const stats = query.data?.results ?? [];
  return (
    <section className="mb-6" aria-label={t('stats.genres')}>
      <h2 className="mb-2 text-lg font-semibold text-white">{t('stats.genres')}</h2>
      <Panel isLoading={query.isLoading} error={query.error} isEmpty={stats.length === 0} empty="stats.noGenres">
        <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          {(['duration', 'plays'] as const).map((by) => (
            <div key={by} className="card h-80">
              <h3 className="text-sm text-gray-300">{t(`stats.genreBy.${by}`)}</h3>
              <ResponsiveContainer width="100%" height="90%">
                <RadarChart
                  data={topGenres(stats, by).map((g) => ({ ...g, duration: Math.round(g.duration / 36) / 100 }))}
                  outerRadius="70%"
                >
                  <PolarGrid stroke="#374151" />
                  <PolarAngleAxis dataKey="genre" tick={{ fill: '#9ca3af', fontSize: 11 }} />
                  <PolarRadiusAxis tick={false} axisLine={false} />
                  <Radar dataKey={by} stroke="#3b82f6" fill="#3b82f6" fillOpacity={0.4} />
                  <Tooltip contentStyle={{ background: '#111827', border: '1px solid #374151' }} />
                </RadarChart>
              </ResponsiveContainer>
            </div>
          ))}
        </div>
      </Panel>
    </section>
  );
}
