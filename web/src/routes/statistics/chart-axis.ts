/**
 * Width of the y axis in pixels, from its widest label. Tremor's fixed 56 px holds six digits: an all-time hour
 * chart at 5 M plays (ticks up to 1,800,000) showed "800000" above "350000", its first digits cut off. The axis's
 * top tick can lie above the largest stacked bar (a rounder number), so the label is taken a quarter higher.
 */
export function axisWidth(rows: Array<Record<string, string | number>>, series: string[], format: (value: number) => string): number {
  const highest = Math.max(0, ...rows.map((row) => series.reduce((sum, name) => sum + Number(row[name] ?? 0), 0)));
  const widest = format(Math.ceil(highest * 1.25)).length;
  return Math.max(56, Math.ceil(widest * 7.5) + 12);
}
