import { describe, expect, it } from 'vitest';
import { heatmapUrl, type HeatmapResponse } from './api';
import { describeCell, gridOf } from './cells';

const T0 = 1_763_712_100;

/** A 2-column, 5-row syscall heatmap as the server sends it. */
const d: HeatmapResponse = {
  stream: 'syscall',
  value: 'duration',
  unit: 'ns',
  event: null,
  name: 'fsync',
  state: null,
  rows: 5,
  row_us: 200_000,
  first_second: T0,
  column_seconds: 1,
  columns: 2,
  start: '2025-11-21T08:01:40Z',
  end: '2025-11-21T08:01:42Z',
  values: [
    [5_500_000, 0, 0, 0, 0],
    [7_000_000, 0, 1_000_000, 0, 0],
  ],
  counts: [
    [2, 0, 0, 0, 0],
    [1, 0, 1, 0, 0],
  ],
  row_totals: [12_500_000, 0, 1_000_000, 0, 0],
  max: 7_000_000,
  total: 13_500_000,
  total_count: 4,
  unclosed: 1,
  hot: [{ column: 1, second: T0 + 1, seconds: 1, start: '', end: '', row: 0, offset_start_us: 0, offset_end_us: 200_000, value: 7_000_000, count: 1 }],
  wall_clock: true,
  notes: ['1 intervals never ended'],
};

describe('heatmap responses', () => {
  it('reads the grid the matrix is laid on', () => {
    expect(gridOf(d)).toEqual({ firstSecond: T0, columnSeconds: 1, columns: 2, rows: 5, rowUs: 200_000 });
  });

  it('describes a cell in plain words', () => {
    expect(describeCell(d, { col: 0, row: 0 })).toEqual(['2025-11-21 08:01:40 UTC', '0–200 ms into the second', '5.5 ms in 2 calls']);
    expect(describeCell({ ...d, wall_clock: false, first_second: 100 }, { col: 1, row: 4 })[0]).toBe('second 101 (capture clock)');
  });

  it('asks for the right filter key per stream', () => {
    const q = { captures: [1, 2], rows: 50, value: 'count' as const, name: 'x', state: 'D', pid: null, tid: 7, comm: null, maxColumns: 600 };
    const params = (stream: 'samples' | 'off-cpu' | 'syscall') => new URL(heatmapUrl({ ...q, stream }), 'http://h').searchParams;
    expect(params('samples').get('event')).toBe('x');
    expect(params('off-cpu').get('state')).toBe('D');
    expect(params('off-cpu').has('name')).toBe(false);
    expect(params('syscall').get('name')).toBe('x');
    expect(params('syscall').get('captures')).toBe('1,2');
    expect(params('syscall').get('tid')).toBe('7');
  });
});
