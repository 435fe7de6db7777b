import { AreaChart, BarChart } from '@tremor/react';
import { useTranslation } from 'react-i18next';
import { useViews, type ViewsChart as Chart } from '../../api/stats';
import type { ViewsOverTime } from '../../api/types';
import { Panel } from '../../components/Panel';
import { axisWidth } from './chart-axis';

export const CHART_COLORS = ['blue', 'emerald', 'amber', 'violet', 'rose', 'cyan', 'indigo', 'fuchsia', 'lime', 'orange'];

/** Rows for a chart: one value per library, the count or the duration (in minutes) of each. */
export function chartRows(
  data: ViewsOverTime | undefined,
  measure: 'count' | 'duration',
): { rows: Array<Record<string, string | number>>; series: string[] } {
  const libraries = data?.libraries ?? [];
  const series = libraries.map((library) => library.Name);
  const rows = (data?.stats ?? []).map((row) => {
    const out: Record<string, string | number> = { Key: row.Key };
    for (const library of libraries) {
      const cell = (row[library.Name] ?? row[library.Id]) as unknown;
      const value = typeof cell === 'object' && cell !== null ? Number((cell as Record<string, unknown>)[measure] ?? 0) : Number(cell ?? 0);
      out[library.Name] = measure === 'duration' && typeof cell === 'object' ? Math.round(value / 60) : value;
    }
    return out;
  });
  return { rows, series };
}

export function ViewsChart({ chart, days, measure, title }: { chart: Chart; days: number; measure: 'count' | 'duration'; title: string }) {
  const { t } = useTranslation();
  const query = useViews(chart, days);
  const { rows, series } = chartRows(query.data, measure);
  const format = (value: number) => (measure === 'duration' ? t('stats.minutes', { count: value }) : String(value));
  const yAxisWidth = axisWidth(rows, series, format);
  return (
    <section className="card mb-4" aria-label={title} data-testid={`chart-${chart}`}>
      <h2 className="mb-2 text-base font-semibold text-white">{title}</h2>
      <Panel isLoading={query.isLoading} error={query.error} isEmpty={rows.length === 0} empty="stats.noStats">
        {chart === 'getViewsOverTime' ? (
          <AreaChart
            className="h-72"
            data={rows}
            index="Key"
            categories={series}
            colors={CHART_COLORS.slice(0, series.length)}
            valueFormatter={format}
            yAxisWidth={yAxisWidth}
            stack
            showAnimation={false}
          />
        ) : (
          <BarChart
            className="h-72"
            data={rows}
            index="Key"
            categories={series}
            colors={CHART_COLORS.slice(0, series.length)}
            valueFormatter={format}
            yAxisWidth={yAxisWidth}
            stack
            showAnimation={false}
          />
        )}
      </Panel>
    </section>
  );
}
