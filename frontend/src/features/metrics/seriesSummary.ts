/**
 * Min, mean and max of a drawn series over the range drawn, from the buckets the server answered. Pure.
 *
 * A bucket carries its points' average and how many points it holds, so the mean of the range is
 * the buckets' averages weighted by their points: exactly the mean of every stored value, the figure
 * a finding quotes (`avg(value)` over the series' points), whatever the bucket width. A rate is
 * another matter: a bucket's rate is its increase over the seconds its steps span, and the answer
 * does not carry those seconds, so the range's mean rate cannot be rebuilt from it and is not shown.
 */
import type { ChartPoint, ChartSeries } from './chartData';

export interface SeriesSummary {
  /** Stored points (values) or steps (rates) behind the figures. */
  points: number;
  min: number | null;
  mean: number | null;
  max: number | null;
  /** Why the mean is missing, when it is. */
  meanNote: string | null;
}

export const RATE_MEAN_NOTE = 'The mean rate needs the seconds each bucket spans, which the points answer does not carry.';

export function seriesSummary(s: Pick<ChartSeries, 'drawn' | 'points'>): SeriesSummary {
  const points: readonly ChartPoint[] = s.points;
  let count = 0;
  let weighted = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    count += p.count;
    weighted += p.avg * p.count;
    min = Math.min(min, p.min);
    max = Math.max(max, p.max);
  }
  if (points.length === 0) return { points: 0, min: null, mean: null, max: null, meanNote: null };
  const rate = s.drawn === 'rate';
  return {
    points: count,
    min,
    max,
    mean: rate || count === 0 ? null : weighted / count,
    meanNote: rate ? RATE_MEAN_NOTE : null,
  };
}
