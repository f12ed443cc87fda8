import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../../api/types';
import { bucketsFor, bucketsForWidth, capturesApart, chartsByUnit, drawnText, nearestPoint, seriesWindows, toChartPoints, yExtent, type ChartSeries } from './chartData';

const series = (id: number, capture: number, first: string, last: string, captureStart: string | null = first): MetricSeries => ({
  id,
  capture_id: capture,
  name: 'request_latency_ms',
  labels: {},
  unit: 'ms',
  points: 10,
  first,
  last,
  host: 'web-1',
  capture_filename: `run${capture}.json`,
  capture_start: captureStart,
  named_kind: 'latency',
});

// A healthy run on one day, an impacted one the next, each 20 s long; the impacted run's capture
// started 3 s before this series' first point.
const healthy = series(1, 10, '2026-11-21T08:00:00Z', '2026-11-21T08:00:20Z');
const impacted = series(2, 11, '2026-11-22T08:00:03Z', '2026-11-22T08:00:30Z', '2026-11-22T08:00:00Z');

describe('what each series is asked for', () => {
  it('on the wall clock: one span for all, so the buckets line up', () => {
    const w = seriesWindows([healthy, impacted], 'time');
    expect(w.get(1)).toEqual({ start: '2026-11-21T08:00:00Z', end: '2026-11-22T08:00:30Z', originMs: 0 });
    expect(w.get(2)).toEqual(w.get(1));
  });
  it('aligned: the same length from each capture’s own start', () => {
    const w = seriesWindows([healthy, impacted], 'start');
    expect(w.get(1)).toEqual({ start: '2026-11-21T08:00:00Z', end: '2026-11-21T08:00:30.000Z', originMs: Date.parse('2026-11-21T08:00:00Z') });
    expect(w.get(2)).toEqual({ start: '2026-11-22T08:00:00Z', end: '2026-11-22T08:00:30.000Z', originMs: Date.parse('2026-11-22T08:00:00Z') });
  });
  it('leaves out series without points', () => {
    expect(seriesWindows([{ ...healthy, first: null, last: null }], 'time').size).toBe(0);
  });
  it('notices runs recorded apart', () => {
    expect(capturesApart([healthy, impacted])).toBe(true);
    expect(capturesApart([healthy, { ...healthy, id: 3, capture_id: 12 }])).toBe(false);
    expect(capturesApart([healthy])).toBe(false);
  });
  it('widens latency buckets to hold about 20 points each', () => {
    const w = seriesWindows([healthy], 'time').get(1);
    expect(bucketsFor({ ...healthy, points: 600 }, w, 1200)).toBe(30);
    expect(bucketsFor({ ...healthy, points: 40 }, w, 1200)).toBe(10);
    expect(bucketsFor({ ...healthy, points: 1_000_000 }, w, 1200)).toBe(1200);
    expect(bucketsFor({ ...healthy, points: 600, named_kind: 'gauge' }, w, 1200)).toBe(1200);
    // Half of the series in view: half its points.
    const half = { start: '2026-11-21T08:00:10Z', end: '2026-11-21T08:00:20Z', originMs: 0 };
    expect(bucketsFor({ ...healthy, points: 600 }, half, 1200)).toBe(15);
  });
  it('asks for about one bucket per pixel, in steps', () => {
    expect(bucketsForWidth(812)).toBe(800);
    expect(bucketsForWidth(10)).toBe(50);
  });
});

describe('chart points', () => {
  const pts = toChartPoints(
    [
      { ts: '2026-01-01T00:00:02Z', avg: 2, min: 2, max: 2, count: 1, p50: null, p90: null, p99: null },
      { ts: '2026-01-01T00:00:00Z', avg: 0, min: 0, max: 0, count: 1, p50: null, p90: null, p99: null },
      { ts: '2026-01-01T00:00:10Z', avg: 10, min: 9, max: 11, count: 2, p50: 10, p90: 10.8, p99: 11 },
    ],
    Date.parse('2026-01-01T00:00:00Z'),
  );
  it('sit at their offset from the origin, in time order', () => {
    expect(pts.map((p) => p.t)).toEqual([0, 2000, 10_000]);
    expect(pts[2]?.p90).toBe(10.8);
  });
  it('finds the nearest point', () => {
    expect(nearestPoint(pts, 900)?.avg).toBe(0);
    expect(nearestPoint(pts, 7000)?.avg).toBe(10);
    expect(nearestPoint([], 0)).toBeNull();
  });
});

const chartSeries = (id: number, unit: string, extra: Partial<ChartSeries> = {}): ChartSeries => ({
  id,
  title: `s${id}`,
  color: '#000',
  kind: 'gauge',
  drawn: 'values',
  unit,
  reason: '',
  resets: 0,
  points: [{ t: 0, avg: 5, min: -1, max: 9, count: 1, p50: null, p90: null, p99: null }],
  ...extra,
});

describe('charts', () => {
  it('one per unit, never two units on one axis', () => {
    const charts = chartsByUnit([chartSeries(1, 'ms'), chartSeries(2, '/s'), chartSeries(3, 'ms')]);
    expect(charts.map((c) => [c.unit, c.series.map((s) => s.id)])).toEqual([
      ['ms', [1, 3]],
      ['/s', [2]],
    ]);
  });
  it('show zero and the whole band', () => {
    expect(yExtent([chartSeries(1, '')])).toEqual([-1, 9]);
    expect(yExtent([])).toEqual([0, 1]);
  });
  it('say what is drawn', () => {
    expect(drawnText(chartSeries(1, '/s', { kind: 'counter', drawn: 'rate', resets: 1 }))).toBe('rate per second (counter, 1 reset)');
    expect(drawnText(chartSeries(1, '', { kind: 'counter' }))).toBe('raw cumulative values');
    expect(drawnText(chartSeries(1, 'ms', { kind: 'latency', points: [{ t: 0, avg: 1, min: 1, max: 1, count: 1, p50: 1, p90: 1, p99: 1 }] }))).toBe(
      'p50 · p90 · p99 · max per bucket',
    );
  });
});
