import { describe, expect, it } from 'vitest';
import { seriesPointsQueryUrl } from '../../api/endpoints';

describe('metric points URL', () => {
  it('ask for raw values only when the view says so', () => {
    expect(seriesPointsQueryUrl(3, { buckets: 600 })).toBe('/api/metrics/series/3/points?buckets=600');
    expect(seriesPointsQueryUrl(3, { buckets: 600, start: 'a', end: 'b', rate: false })).toBe('/api/metrics/series/3/points?buckets=600&start=a&end=b&rate=false');
  });
});
