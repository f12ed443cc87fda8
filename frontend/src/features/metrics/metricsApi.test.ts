import { describe, expect, it } from 'vitest';
import { decodeMetricPoints, decodeSeriesList } from '../../api/decode';
import { seriesPointsQueryUrl } from '../../api/endpoints';

describe('metrics API payloads', () => {
  it('decode what is drawn and why', () => {
    const p = decodeMetricPoints({
      series_id: 4,
      bucket_ns: 10,
      points: [{ ts: 't', avg: 1, min: 0, max: 2, count: 3, p50: 1, p90: 1.8, p99: 2 }],
      kind: 'counter',
      kind_reason: 'name ends in _total',
      drawn: 'rate',
      unit: '/s',
      start: 's',
      end: 'e',
      resets: 1,
    });
    expect([p.kind, p.drawn, p.unit, p.resets, p.points[0]?.p90]).toEqual(['counter', 'rate', '/s', 1, 1.8]);
    expect(() => decodeMetricPoints({ series_id: 1, points: [], kind: 'histogram' })).toThrow(/points.kind/);
  });
  it('read older answers with defaults', () => {
    const p = decodeMetricPoints({ series_id: 1, bucket_ns: 5, points: [{ ts: 't', avg: 1, min: 0, max: 2, count: 3 }] });
    expect([p.kind, p.drawn, p.unit, p.points[0]?.p50]).toEqual(['gauge', 'values', '', null]);
    const [s] = decodeSeriesList([{ id: 1, capture_id: 2, name: 'load', labels: {}, unit: null, points: 1, first: null, last: null }]);
    expect([s?.host, s?.capture_filename, s?.capture_start, s?.named_kind]).toEqual([null, null, null, 'gauge']);
  });
  it('ask for raw values only when the view says so', () => {
    expect(seriesPointsQueryUrl(3, { buckets: 600 })).toBe('/api/metrics/series/3/points?buckets=600');
    expect(seriesPointsQueryUrl(3, { buckets: 600, start: 'a', end: 'b', rate: false })).toBe('/api/metrics/series/3/points?buckets=600&start=a&end=b&rate=false');
  });
});
