import { describe, expect, it } from 'vitest';
import type { ThreadRow } from './api';
import { DEFAULT_VIEW, groupThreads, readThreadsView, sortThreads, stacksHref, writeThreadsView } from './threadsView';

const row = (tid: number, pid: number, comm: string, states: Partial<ThreadRow['states']>, p99: number | null = null): ThreadRow => {
  const full = { running: 0, runnable: 0, sleeping: 0, uninterruptible: 0, other: 0, unknown: 0, ...states };
  return {
    capture_id: 1,
    host: 'db-1',
    pid,
    tid,
    comm,
    wall_ns: Object.values(full).reduce((a, b) => a + b, 0),
    states: full,
    other_states: {},
    intervals: 1,
    latency: { count: p99 === null ? 0 : 1, p50_ns: p99, p90_ns: p99, p99_ns: p99, max_ns: p99 },
    wakers: [],
    top_stacks: {},
  };
};

const rows = [
  row(1, 10, 'db', { running: 10, sleeping: 90 }),
  row(2, 10, 'db', { uninterruptible: 60, sleeping: 40 }, 5),
  row(3, 20, 'web', { running: 30, runnable: 30, unknown: 40 }, 9),
];

describe('threads view state', () => {
  it('round-trips its keys beside the selection and drops bad values', () => {
    const v = { sort: 'uninterruptible' as const, group: 'process' as const, match: '^db', thread: '1:2', state: 'sleeping' as const };
    const p = writeThreadsView(new URLSearchParams('incident=1'), v);
    expect(p.get('incident')).toBe('1');
    expect(readThreadsView(p)).toEqual(v);
    expect(readThreadsView(new URLSearchParams('sort=bogus&tstate=zzz&thread=x'))).toEqual(DEFAULT_VIEW);
  });
});

describe('sorting and grouping', () => {
  it('sorts by busy time, a state share, name or latency', () => {
    expect(sortThreads(rows, 'busy').map((t) => t.tid)).toEqual([2, 3, 1]);
    expect(sortThreads(rows, 'sleeping').map((t) => t.tid)).toEqual([1, 2, 3]);
    expect(sortThreads(rows, 'name').map((t) => t.tid)).toEqual([1, 2, 3]);
    expect(sortThreads(rows, 'latency').map((t) => t.tid)).toEqual([3, 2, 1]);
  });

  it('sums threads per process and per name', () => {
    const byProcess = groupThreads(rows, 'process', 'busy');
    expect(byProcess.map((g) => g.key)).toEqual(['p1:10', 'p1:20']);
    expect(byProcess[0]?.total.states.uninterruptible).toBe(60);
    expect(byProcess[0]?.total.wall_ns).toBe(200);
    expect(byProcess[0]?.threads.map((t) => t.tid)).toEqual([2, 1]);
    expect(groupThreads(rows, 'name', 'name').map((g) => g.label)).toEqual(['db · 2 threads', 'web · 1 threads']);
    expect(groupThreads(rows, 'thread', 'busy')).toHaveLength(3);
  });
});

describe('stacks for a state', () => {
  it('links blocked states to the off-CPU flame graph of that thread and running to CPU samples', () => {
    const search = 'incident=1&captures=4,5&comm=db&sort=busy';
    const t = { capture_id: 4, tid: 2 };
    expect(stacksHref(search, t, 'uninterruptible', 'sched')).toBe('/flame?incident=1&captures=4&tid=2&source=off-cpu&state=D');
    expect(stacksHref(search, t, 'running', 'sched')).toBe('/flame?incident=1&captures=4&tid=2');
    expect(stacksHref(search, t, 'unknown', 'sched')).toBeNull();
    expect(stacksHref(search, t, 'sleeping', 'proc-sampler')).toBeNull();
  });
});
