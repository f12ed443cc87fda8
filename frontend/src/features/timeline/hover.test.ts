import { describe, expect, it } from 'vitest';
import type { CpuData, EventMark, EventsData, Grid, MetricData, OffCpuData } from './api';
import { bucketAt, hoverLines, nearestMark, pointAt } from './hover';

const grid: Grid = { start_us: 1_000_000, width_us: 1_000_000, count: 4 };

describe('bucket lookup', () => {
  it('finds the bucket holding an instant, or none outside the grid', () => {
    expect(bucketAt(grid, 1_000_000)).toBe(0);
    expect(bucketAt(grid, 2_999_999)).toBe(1);
    expect(bucketAt(grid, 4_999_999)).toBe(3);
    expect(bucketAt(grid, 5_000_000)).toBeNull();
    expect(bucketAt(grid, 999_999)).toBeNull();
  });
});

const mark = (ts_us: number, duration_ns: number | null, name = 'futex'): EventMark => ({ ts_us, duration_ns, name, pid: null, tid: 7, comm: 'app' });

describe('nearest mark', () => {
  const marks = [mark(100, 1_000), mark(200, 50_000_000, 'fsync'), mark(60_000, null)];

  it('prefers a mark whose span covers the instant', () => {
    expect(nearestMark(marks, 30_000, 5)?.name).toBe('fsync'); // fsync runs 200 µs .. 50.2 ms
  });

  it('finds a short mark within the tolerance and nothing beyond it', () => {
    expect(nearestMark(marks, 103, 5)?.ts_us).toBe(100);
    expect(nearestMark([mark(100, 1_000)], 120, 5)).toBeNull();
  });

  it('treats an unfinished event as an instant', () => {
    expect(nearestMark(marks, 60_003, 5)?.duration_ns).toBeNull();
  });
});

describe('point lookup', () => {
  const points = [
    { ts_us: 10, value: 1000 },
    { ts_us: 20, value: 800 },
    { ts_us: 30, value: 600 },
  ];
  it('holds the last sample until the next one', () => {
    expect(pointAt(points, 5)).toBeNull();
    expect(pointAt(points, 10)?.value).toBe(1000);
    expect(pointAt(points, 29)?.value).toBe(800);
    expect(pointAt(points, 1000)?.value).toBe(600);
  });
});

describe('hover lines', () => {
  it('lists every process in the bucket, busiest first, with its rate', () => {
    const cpu: CpuData = {
      type: 'cpu',
      id: 'cpu:h:cpu-clock',
      source: 'raw',
      split: 'process',
      groups: [
        { comm: 'db', pid: 10, other: false, total: 203, counts: [200, 0, 3, 0] },
        { comm: 'web', pid: 20, other: false, total: 50, counts: [0, 50, 0, 0] },
        { comm: 'other', pid: null, other: true, total: 1, counts: [0, 0, 1, 0] },
      ],
    };
    expect(hoverLines(cpu, grid, 3_500_000, 10)).toEqual([
      { label: 'samples', value: '4 (4/s)' },
      { label: 'db pid 10', value: '3 (3/s)' },
      { label: 'other', value: '1 (1/s)' },
    ]);
  });

  it('gives off-CPU time per state with the average number of threads', () => {
    const off: OffCpuData = {
      type: 'offcpu',
      id: 'offcpu:h',
      source: 'steps',
      states: [
        { state: 'D', total_ns: 1.25e9, ns: [0, 0.75e9, 0.5e9, 0] },
        { state: 'S', total_ns: 1.5e9, ns: [1e9, 0, 0.5e9, 0] },
      ],
    };
    expect(hoverLines(off, grid, 2_100_000, 10)).toEqual([{ label: 'D (uninterruptible)', value: '750 ms off-CPU · 0.75 threads avg' }]);
  });

  it('gives count and longest latency for dense events', () => {
    const ev: EventsData = {
      type: 'events',
      id: 'ev:h:syscall',
      source: 'rollup 1 s',
      mode: 'buckets',
      count: 2002,
      marks: [],
      buckets: { count: [500, 501, 0, 1001], max_ns: [16_000, 100_000_000, null, 250_000_000] },
    };
    expect(hoverLines(ev, grid, 2_000_000, 10)).toEqual([{ label: 'events', value: '501, longest 100 ms' }]);
    expect(hoverLines(ev, grid, 3_000_000, 10)).toEqual([{ label: 'events', value: 'none' }]);
  });

  it('gives min, avg and max of a bucketed metric with its unit', () => {
    const m: MetricData = {
      type: 'metric',
      id: 'm:h:free',
      source: 'raw',
      unit: 'MiB',
      mode: 'buckets',
      count: 12,
      points: [],
      buckets: { count: [5, 5, 2, 0], min: [400, 400, 400, null], avg: [760, 720, 500, null], max: [1000, 1000, 600, null] },
    };
    expect(hoverLines(m, grid, 1_000_000, 10, 'MiB')).toEqual([
      { label: 'min', value: '400 MiB' },
      { label: 'avg', value: '760 MiB' },
      { label: 'max', value: '1,000 MiB (5 samples)' },
    ]);
  });
});
