import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../../api/types';
import { decodeMetricsView, encodeMetricsView, metricsHref } from './metricsView';
import { bucketsForWidth, groupSeries, labelText, nearestPoint, seriesTitle, toChartPoints } from './seriesList';

const s = (id: number, name: string, labels: Record<string, string>): MetricSeries => ({
  id,
  capture_id: 1,
  name,
  labels,
  unit: '%',
  points: 3,
  first: null,
  last: null,
});

describe('series list', () => {
  const all = [s(1, 'cpu.user', { cpu: '10' }), s(2, 'cpu.user', { cpu: '2' }), s(3, 'cpu.idle', { cpu: 'all' }), s(4, 'load', {})];
  it('groups by name, labels in natural order', () => {
    const groups = groupSeries(all, '');
    expect(groups.map((g) => g.name)).toEqual(['cpu.idle', 'cpu.user', 'load']);
    expect(groups[1]?.series.map((x) => x.id)).toEqual([2, 1]);
  });
  it('searches names and labels', () => {
    expect(groupSeries(all, 'CPU=ALL').map((g) => g.name)).toEqual(['cpu.idle']);
    expect(groupSeries(all, 'nothing')).toEqual([]);
  });
  it('titles series like Prometheus', () => {
    expect(seriesTitle(all[0] ?? s(0, '', {}))).toBe('cpu.user{cpu=10}');
    expect(labelText({ b: '1', a: '2' })).toBe('a=2, b=1');
  });
});

describe('chart data', () => {
  it('asks for about one bucket per pixel, in steps', () => {
    expect(bucketsForWidth(812)).toBe(800);
    expect(bucketsForWidth(10)).toBe(50);
  });
  it('finds the nearest point', () => {
    const pts = toChartPoints([
      { ts: '2026-01-01T00:00:02Z', avg: 2, min: 2, max: 2, count: 1 },
      { ts: '2026-01-01T00:00:00Z', avg: 0, min: 0, max: 0, count: 1 },
      { ts: '2026-01-01T00:00:10Z', avg: 10, min: 9, max: 11, count: 2 },
    ]);
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    expect(nearestPoint(pts, t0 + 900)?.avg).toBe(0);
    expect(nearestPoint(pts, t0 + 7000)?.avg).toBe(10);
    expect(nearestPoint([], t0)).toBeNull();
  });
});

describe('metrics view in the URL', () => {
  it('round-trips', () => {
    const v = { incident: 2, captures: [3], series: [8, 18], search: 'cpu' };
    expect(decodeMetricsView(encodeMetricsView(v))).toEqual(v);
    expect(metricsHref({ captures: [3] })).toBe('/metrics?v=1&captures=3');
  });
});
