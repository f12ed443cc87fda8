import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../../api/types';
import { decodeMetricsView, encodeMetricsView, metricsHref } from './metricsView';
import { captureText, groupSeries, labelText, metricText, sameMetric, seriesItemText, seriesTitle } from './seriesList';

const s = (id: number, name: string, labels: Record<string, string>, host: string | null = 'db-1', capture = 1, filename: string | null = 'sar.txt'): MetricSeries => ({
  id,
  capture_id: capture,
  name,
  labels,
  unit: '%',
  points: 3,
  first: null,
  last: null,
  host,
  capture_filename: filename,
  capture_start: null,
  named_kind: 'gauge',
});

describe('series names', () => {
  it('name the host, the capture and the metric with its labels', () => {
    expect(seriesTitle(s(1, 'cpu.user', { cpu: '10' }, 'db-7', 12, 'sar.txt'))).toBe('db-7 · #12 sar.txt · cpu.user{cpu=10}');
    expect(seriesTitle(s(2, 'load', {}, null, 3, null))).toBe('no host · #3 · load');
    expect(labelText({ b: '1', a: '2' })).toBe('a=2, b=1');
    expect(metricText(s(1, 'up', { instance: 'a:9100' }))).toBe('up{instance=a:9100}');
  });
  it('tell apart the same metric on two hosts, and two uploads of one file', () => {
    const a = s(1, 'requests_total', { job: 'api' }, 'web-1', 4, 'prom.json');
    const b = s(2, 'requests_total', { job: 'api' }, 'web-2', 5, 'prom.json');
    const c = s(3, 'requests_total', { job: 'api' }, 'web-1', 6, 'prom.json');
    const titles = [a, b, c].map(seriesTitle);
    expect(new Set(titles).size).toBe(3);
    expect(seriesItemText(b)).toBe('web-2 · #5 prom.json · job=api');
    expect(captureText(c)).toBe('#6 prom.json');
  });
  it('never show a series as "(no labels)"', () => {
    expect(seriesItemText(s(9, 'load', {}, 'db-1', 2, 'vmstat.txt'))).toBe('db-1 · #2 vmstat.txt');
  });
});

describe('series list', () => {
  const all = [
    s(1, 'cpu.user', { cpu: '10' }),
    s(2, 'cpu.user', { cpu: '2' }),
    s(3, 'cpu.idle', { cpu: 'all' }),
    s(4, 'load', {}, 'db-2', 2),
    s(5, 'load', {}, 'db-1', 1),
  ];
  it('groups by name, then labels in natural order, then host', () => {
    const groups = groupSeries(all, '');
    expect(groups.map((g) => g.name)).toEqual(['cpu.idle', 'cpu.user', 'load']);
    expect(groups[1]?.series.map((x) => x.id)).toEqual([2, 1]);
    expect(groups[2]?.series.map((x) => x.id)).toEqual([5, 4]);
    expect(groups.map((g) => g.hosts)).toEqual([1, 1, 2]);
  });
  it('searches names, labels, hosts and captures', () => {
    expect(groupSeries(all, 'CPU=ALL').map((g) => g.name)).toEqual(['cpu.idle']);
    expect(groupSeries(all, 'db-2').flatMap((g) => g.series.map((x) => x.id))).toEqual([4]);
    expect(groupSeries(all, '#2 ').flatMap((g) => g.series.map((x) => x.id))).toEqual([4]);
    expect(groupSeries(all, 'nothing')).toEqual([]);
  });
  it('finds the same metric on every host, the series itself first', () => {
    expect(sameMetric(all, all[4] ?? s(0, '', {})).map((x) => x.id)).toEqual([5, 4]);
    expect(sameMetric(all, all[0] ?? s(0, '', {})).map((x) => x.id)).toEqual([1]);
  });
});

describe('metrics view in the URL', () => {
  it('round-trips', () => {
    const v = {
      incident: 2,
      captures: [3],
      series: [8, 18],
      search: 'cpu',
      x: 'start' as const,
      counters: 'raw' as const,
      show: '',
      labels: [],
      hosts: [],
    };
    expect(decodeMetricsView(encodeMetricsView(v))).toEqual(v);
    expect(metricsHref({ captures: [3] })).toBe('/metrics?v=1&captures=3');
  });
  it('reads older links as wall clock and rates', () => {
    expect(decodeMetricsView('v=1&incident=4')).toEqual({
      incident: 4,
      captures: [],
      series: [],
      search: '',
      x: 'time',
      counters: 'rate',
      show: '',
      labels: [],
      hosts: [],
    });
    expect(decodeMetricsView('incident=zero&x=sideways&counters=x')).toMatchObject({ incident: null, x: 'time', counters: 'rate' });
  });
});
