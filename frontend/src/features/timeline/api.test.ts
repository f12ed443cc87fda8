import { describe, expect, it } from 'vitest';
import { timelineUrl, type TimelineResponse } from './api';
import { trackExtent } from './draw';

const response: TimelineResponse = {
  start: '2026-11-21T08:00:00Z',
  end: '2026-11-21T08:00:04Z',
  grid: { start_us: 1795248000000000, width_us: 1000000, count: 2 },
  tracks: [
    {
      type: 'cpu',
      id: 'cpu:db1:cpu-clock',
      source: 'rollup 1 s',
      split: 'process',
      groups: [{ comm: 'db', pid: 10, other: false, total: 203, counts: [200, 3] }],
    },
    { type: 'offcpu', id: 'offcpu:db1', source: 'steps', states: [{ state: 'D', total_ns: 5, ns: [2, 3] }] },
    { type: 'events', id: 'ev:db1:syscall', source: 'raw', mode: 'marks', count: 1, buckets: null, marks: [{ ts_us: 5, duration_ns: null, name: 'futex', pid: null, tid: 4, comm: 'a' }] },
    { type: 'metric', id: 'm:db1:x', source: 'raw', unit: 'MiB', mode: 'buckets', count: 3, points: [], buckets: { count: [2, 1], min: [1, null], avg: [2, null], max: [3, null] } },
  ],
  missing: [],
  query_ms: 12.5,
};

describe('timeline requests', () => {
  it('builds the request URL with the pixel width and the shared filters', () => {
    const url = timelineUrl({
      incident: 3,
      captures: [4],
      hosts: [],
      tracks: ['cpu:db1:cpu-clock', 'offcpu:db1'],
      startUs: 1795248000000000,
      endUs: 1795248004000001,
      widthPx: 1234.6,
      pid: 10,
      tid: null,
      comm: null,
      split: 'process',
    });
    const p = new URL(url, 'http://x').searchParams;
    expect(p.get('tracks')).toBe('cpu:db1:cpu-clock,offcpu:db1');
    expect(p.get('start')).toBe('2026-11-21T08:00:00.000000Z');
    expect(p.get('end')).toBe('2026-11-21T08:00:04.000001Z');
    expect(p.get('width')).toBe('1235');
    expect(p.get('pid')).toBe('10');
    expect(p.get('captures')).toBe('4');
    expect(p.has('split')).toBe(false);
  });
});

describe('track extents', () => {
  it('scales CPU by the busiest bucket in samples per second', () => {
    const [cpu] = response.tracks;
    if (!cpu) throw new Error('no track');
    expect(trackExtent(cpu, { start_us: 0, width_us: 500_000, count: 2 })).toEqual({ lo: 0, hi: 400, log: false });
  });

  it('scales a metric between its extremes with a margin', () => {
    const t = response;
    const metric = t.tracks[3];
    if (!metric) throw new Error('no track');
    const e = trackExtent(metric, t.grid);
    expect(e.lo).toBeLessThan(1);
    expect(e.hi).toBeGreaterThan(3);
  });
});
