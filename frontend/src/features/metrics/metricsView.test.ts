import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../../api/types';
import { decodeMetricsView, encodeMetricsView, noShownText, parseLabels, seriesToShow, wantsShown } from './metricsView';

const s = (id: number, name: string, labels: Record<string, string>, host: string | null): MetricSeries => ({
  id,
  capture_id: id,
  name,
  labels,
  unit: '%',
  points: 3,
  first: null,
  last: null,
  host,
  capture_filename: 'psi.jsonl',
  capture_start: null,
  named_kind: 'gauge',
});

const all = [
  s(1, 'pressure.memory.some.avg10', {}, 'bad'),
  s(2, 'pressure.memory.some.avg10', {}, 'fixed'),
  s(3, 'pressure.memory.some.avg60', {}, 'bad'),
  s(4, 'cpu.util', { cpu: '0', mode: 'user' }, 'bad'),
  s(5, 'cpu.util', { cpu: '1', mode: 'user' }, 'bad'),
  s(6, 'cpu.util', { cpu: '0', mode: 'system' }, 'bad'),
  s(7, 'pressure.memory.some.avg10', {}, null),
];

describe('a link naming the series to show', () => {
  it('decodes show, labels and hosts', () => {
    const v = decodeMetricsView('hosts=bad,,web-2,bad&incident=3&q=pressure.memory&show=pressure.memory.some.avg10&labels=cpu=0,mode=a=b,flag');
    expect([v.show, v.labels, v.hosts, v.search, v.series]).toEqual([
      'pressure.memory.some.avg10',
      [
        ['cpu', '0'],
        ['mode', 'a=b'],
        ['flag', ''],
      ],
      ['bad', 'web-2'],
      'pressure.memory',
      [],
    ]);
    expect(wantsShown(v)).toBe(true);
    expect(wantsShown(decodeMetricsView('show=x&series=4'))).toBe(false);
    expect(wantsShown(decodeMetricsView('incident=3'))).toBe(false);
  });
  it('round-trips through the URL', () => {
    const v = decodeMetricsView('incident=3&show=cpu.util&labels=cpu=0,mode=user&hosts=bad');
    expect(decodeMetricsView(encodeMetricsView(v))).toEqual(v);
    expect(parseLabels('')).toEqual([]);
  });
  it('picks the series of that name on the hosts named', () => {
    expect(seriesToShow(all, decodeMetricsView('show=pressure.memory.some.avg10&hosts=bad'))).toEqual([1]);
    expect(seriesToShow(all, decodeMetricsView('show=pressure.memory.some.avg10&hosts=bad,fixed'))).toEqual([1, 2]);
    expect(seriesToShow(all, decodeMetricsView('show=pressure.memory.some.avg10'))).toEqual([1, 2, 7]);
  });
  it('requires every label of the link, and allows more on the series', () => {
    expect(seriesToShow(all, decodeMetricsView('show=cpu.util&labels=cpu=0'))).toEqual([4, 6]);
    expect(seriesToShow(all, decodeMetricsView('show=cpu.util&labels=cpu=0,mode=user&hosts=bad'))).toEqual([4]);
    expect(seriesToShow(all, decodeMetricsView('show=cpu.util&labels=cpu=2'))).toEqual([]);
  });
  it('matches names exactly, not as a search', () => {
    expect(seriesToShow(all, decodeMetricsView('show=pressure.memory'))).toEqual([]);
    expect(seriesToShow(all, decodeMetricsView('q=cpu'))).toEqual([]);
  });
  it('says what was not found', () => {
    expect(noShownText(decodeMetricsView('show=pressure.memory.some.avg10&hosts=web-1'))).toBe('No series named pressure.memory.some.avg10 on host web-1');
    expect(noShownText(decodeMetricsView('show=cpu.util&labels=mode=user,cpu=2&hosts=a,b'))).toBe('No series named cpu.util{cpu=2, mode=user} on hosts a, b');
    expect(noShownText(decodeMetricsView('show=load'))).toBe('No series named load');
  });
});
