/**
 * What the metric charts ask the server for and how its answers become chart points. Pure.
 *
 * Series on one chart share a bucket grid: on the wall clock they are all asked for the same span;
 * aligned by capture start, each is asked for the same length from its own capture's first point,
 * and drawn at its offset from there, so a healthy run and an impacted one recorded days apart line
 * up bucket for bucket.
 */
import type { MetricKind, MetricPoint, MetricPoints, MetricSeries } from '../../api/types';

export type XMode = 'time' | 'start';

/** Buckets to ask for: about one per pixel, in steps so a small resize does not refetch. */
export const bucketsForWidth = (width: number): number => Math.max(50, Math.min(4000, Math.round(width / 50) * 50));

export interface SeriesWindow {
  start: string;
  end: string;
  /** Subtracted from each point's time: 0 on the wall clock, the capture's start when aligned. */
  originMs: number;
}

const ms = (iso: string | null): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

/** The span each series is asked for; series without points are left out. */
export function seriesWindows(chosen: readonly MetricSeries[], mode: XMode): Map<number, SeriesWindow> {
  const out = new Map<number, SeriesWindow>();
  const spans = chosen.flatMap((s) => {
    const first = ms(s.first);
    const last = ms(s.last);
    if (first === null || last === null || !s.first || !s.last) return [];
    const originIso = s.capture_start && (ms(s.capture_start) ?? Infinity) <= first ? s.capture_start : s.first;
    return [{ s, first, last, origin: ms(originIso) ?? first, originIso }];
  });
  if (spans.length === 0) return out;
  if (mode === 'time') {
    const earliest = spans.reduce((a, b) => (b.first < a.first ? b : a));
    const latest = spans.reduce((a, b) => (b.last > a.last ? b : a));
    for (const { s } of spans) out.set(s.id, { start: earliest.s.first ?? '', end: latest.s.last ?? '', originMs: 0 });
    return out;
  }
  const length = Math.max(...spans.map((x) => x.last - x.origin));
  for (const { s, origin, originIso } of spans) {
    out.set(s.id, { start: originIso, end: new Date(origin + length).toISOString(), originMs: origin });
  }
  return out;
}

/** Points a latency bucket should hold for its percentiles to describe a distribution. */
export const POINTS_PER_LATENCY_BUCKET = 20;
/** Fewest buckets a latency is drawn in, however few its points. */
export const MIN_LATENCY_BUCKETS = 10;

/**
 * How many buckets to ask for: about one per pixel, except for latencies, whose buckets are widened
 * to hold some 20 points each (a percentile of one point is that point), estimated from the series'
 * points spread evenly over its span.
 */
export function bucketsFor(s: MetricSeries, w: SeriesWindow | undefined, pixelBuckets: number): number {
  if (s.named_kind !== 'latency' || !w) return pixelBuckets;
  const first = ms(s.first);
  const last = ms(s.last);
  const lo = ms(w.start);
  const hi = ms(w.end);
  if (first === null || last === null || lo === null || hi === null) return pixelBuckets;
  const shown = last > first ? (Math.max(0, Math.min(last, hi) - Math.max(first, lo)) / (last - first)) * s.points : s.points;
  return Math.min(pixelBuckets, Math.max(MIN_LATENCY_BUCKETS, Math.floor(shown / POINTS_PER_LATENCY_BUCKET)));
}

/** Whether the captures behind the chosen series were recorded at times that never overlap. */
export function capturesApart(chosen: readonly MetricSeries[]): boolean {
  const byCapture = new Map<number, [number, number]>();
  for (const s of chosen) {
    const first = ms(s.first);
    const last = ms(s.last);
    if (first === null || last === null) continue;
    const span = byCapture.get(s.capture_id);
    byCapture.set(s.capture_id, span ? [Math.min(span[0], first), Math.max(span[1], last)] : [first, last]);
  }
  const spans = [...byCapture.values()].sort((a, b) => a[0] - b[0]);
  if (spans.length < 2) return false;
  return spans.every((span, i) => i === 0 || span[0] > (spans[i - 1]?.[1] ?? Infinity));
}

export interface ChartPoint {
  /** ms: since the epoch on the wall clock, since the capture's start when aligned. */
  t: number;
  avg: number;
  min: number;
  max: number;
  count: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

export const toChartPoints = (points: readonly MetricPoint[], originMs = 0): ChartPoint[] =>
  points
    .map((p) => ({ t: Date.parse(p.ts) - originMs, avg: p.avg, min: p.min, max: p.max, count: p.count, p50: p.p50, p90: p.p90, p99: p.p99 }))
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

export interface ChartSeries {
  id: number;
  title: string;
  color: string;
  kind: MetricKind;
  drawn: MetricPoints['drawn'];
  /** Of the drawn values. */
  unit: string;
  reason: string;
  resets: number;
  points: ChartPoint[];
}

/** How each percentile line is drawn; the legend shows the same strokes. */
export const PERCENTILE_STROKES: Record<'p50' | 'p90' | 'p99' | 'max', { dash: string; width: number; opacity: number }> = {
  p50: { dash: '', width: 2, opacity: 1 },
  p90: { dash: '6 3', width: 1.25, opacity: 1 },
  p99: { dash: '', width: 1, opacity: 0.85 },
  max: { dash: '1 3', width: 1.25, opacity: 0.8 },
};

/** Whether a series is drawn as percentiles (a latency's values). */
export const hasPercentiles = (s: ChartSeries): boolean => s.points.some((p) => p.p50 !== null);

export interface UnitChart {
  unit: string;
  series: ChartSeries[];
}

/** One chart per drawn unit, in the order series were picked: one y axis never mixes units. */
export function chartsByUnit(series: readonly ChartSeries[]): UnitChart[] {
  const charts = new Map<string, UnitChart>();
  for (const s of series) {
    const chart = charts.get(s.unit);
    if (chart) chart.series.push(s);
    else charts.set(s.unit, { unit: s.unit, series: [s] });
  }
  return [...charts.values()];
}

/** The y range a chart must show: 0 included, the widest of min and max (and percentiles). */
export function yExtent(series: readonly ChartSeries[]): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const s of series) {
    for (const p of s.points) {
      lo = Math.min(lo, p.min);
      hi = Math.max(hi, p.max);
    }
  }
  return hi === lo ? [lo, lo + 1] : [lo, hi];
}

/** How the legend describes what is drawn for a series. */
export function drawnText(s: ChartSeries): string {
  if (s.drawn === 'rate') {
    const resets = s.resets > 0 ? `, ${s.resets} reset${s.resets === 1 ? '' : 's'}` : '';
    return `rate per second (${s.kind === 'counter' ? 'counter' : 'asked for'}${resets})`;
  }
  if (hasPercentiles(s)) return 'p50 · p90 · p99 · max per bucket';
  if (s.kind === 'counter') return 'raw cumulative values';
  return 'average, min–max band';
}
