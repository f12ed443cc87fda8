import { describe, expect, it } from 'vitest';
import type { ChartPoint } from './chartData';
import { RATE_MEAN_NOTE, seriesSummary } from './seriesSummary';

const bucket = (avg: number, min: number, max: number, count: number): ChartPoint => ({ t: 0, avg, min, max, count, p50: null, p90: null, p99: null });

describe('a drawn series summed up', () => {
  it('weighs each bucket by its points: the mean of every value', () => {
    // Values 1, 2, 3 | 10: the mean of the four values is 4, the mean of the two buckets 6.
    const sum = seriesSummary({ drawn: 'values', points: [bucket(2, 1, 3, 3), bucket(10, 10, 10, 1)] });
    expect(sum).toEqual({ points: 4, min: 1, mean: 4, max: 10, meanNote: null });
  });
  it('takes the extremes of the buckets, not of their averages', () => {
    const sum = seriesSummary({ drawn: 'values', points: [bucket(5, -2, 9, 2), bucket(6, 4, 8, 2)] });
    expect([sum.min, sum.max, sum.mean]).toEqual([-2, 9, 5.5]);
  });
  it('leaves out the mean of a rate, which the buckets cannot rebuild', () => {
    const sum = seriesSummary({ drawn: 'rate', points: [bucket(2, 1, 3, 3), bucket(10, 10, 10, 1)] });
    expect(sum).toEqual({ points: 4, min: 1, mean: null, max: 10, meanNote: RATE_MEAN_NOTE });
  });
  it('has nothing to say without points', () => {
    expect(seriesSummary({ drawn: 'values', points: [] })).toEqual({ points: 0, min: null, mean: null, max: null, meanNote: null });
  });
});
