/** Grouping and search of metric series, and chart data shaping. Pure. */
import type { MetricPoint, MetricSeries } from '../../api/types';

/** "cpu=0, mode=user"; "" without labels. */
export const labelText = (labels: Record<string, string>): string =>
  Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');

export interface SeriesGroup {
  name: string;
  unit: string;
  series: MetricSeries[];
}

/** Series grouped by name (names sorted), filtered by a case-insensitive search over name and labels. */
export function groupSeries(all: readonly MetricSeries[], search: string): SeriesGroup[] {
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, SeriesGroup>();
  for (const s of all) {
    if (needle && !`${s.name} ${labelText(s.labels)}`.toLowerCase().includes(needle)) continue;
    const g = groups.get(s.name);
    if (g) g.series.push(s);
    else groups.set(s.name, { name: s.name, unit: s.unit, series: [s] });
  }
  for (const g of groups.values()) g.series.sort((a, b) => labelText(a.labels).localeCompare(labelText(b.labels), undefined, { numeric: true }));
  return [...groups.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** "cpu.user{cpu=0}" */
export const seriesTitle = (s: MetricSeries): string => {
  const l = labelText(s.labels);
  return l ? `${s.name}{${l}}` : s.name;
};

/** Buckets to ask for: about one per pixel, in steps so a small resize does not refetch. */
export const bucketsForWidth = (width: number): number => Math.max(50, Math.min(4000, Math.round(width / 50) * 50));

export interface ChartPoint {
  t: number;
  avg: number;
  min: number;
  max: number;
  count: number;
}

export const toChartPoints = (points: readonly MetricPoint[]): ChartPoint[] =>
  points
    .map((p) => ({ t: Date.parse(p.ts), avg: p.avg, min: p.min, max: p.max, count: p.count }))
    .filter((p) => Number.isFinite(p.t))
    .sort((a, b) => a.t - b.t);

/** The point nearest to time `t` (points sorted by time), or null. */
export function nearestPoint(points: readonly ChartPoint[], t: number): ChartPoint | null {
  if (points.length === 0) return null;
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((points[mid]?.t ?? 0) < t) lo = mid + 1;
    else hi = mid;
  }
  const after = points[lo];
  const before = points[lo - 1];
  if (!after) return null;
  if (before && Math.abs(before.t - t) <= Math.abs(after.t - t)) return before;
  return after;
}
